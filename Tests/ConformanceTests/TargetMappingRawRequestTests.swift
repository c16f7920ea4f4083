import JSON
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// Raw requests (hand-written, no operation) carry the acting installation where the target places it,
/// as the mapped request of the operation their route names does.
@Suite struct TargetMappingRawRequestTests {
    func mapping(_ extra: String) throws -> TargetMapping {
        try TargetFile.load(text: "baseURL: http://h\n\(TargetFileLoaderTests.users)\n\(extra)", file: "t.yaml")
            .mapping
    }

    func header(_ p: PreparedRequest, _ name: String) -> String? { p.headers.first { $0.0 == name }?.1 }

    /// A raw request as `prepare` makes it: the actor's installation among its values.
    func raw(_ actor: String, _ method: String, _ path: String, body: JSONValue? = nil, installation: String)
        -> PreparedRequest
    {
        PreparedRequest(
            actor: actor, method: method, path: path, body: body, values: ["installationId": .string(installation)],
            actorInstallation: installation)
    }

    @Test func aDevicesRawEndCarriesItsInstallationAsItsMappedEndDoes() throws {
        let m = try mapping("installation: {in: header, name: X-Device-Id}")
        let mapped = PreparedRequest(
            actor: "b-phone", method: "POST", path: "",
            body: ["operationId": "op-1", "reason": "remoteEnded", "installationId": "b-inst"], operation: .end,
            values: ["callId": "c-1", "userId": "ub"], actorInstallation: "b-inst")
        let rawEnd = raw(
            "b-phone", "POST", "/v1/calls/c-1/end", body: ["operationId": "op-x", "reason": "remoteEnded"],
            installation: "b-inst")
        #expect(header(m.apply(mapped), "x-device-id") == "b-inst")
        let wire = m.apply(rawEnd)
        #expect(header(wire, "x-device-id") == header(m.apply(mapped), "x-device-id"))
        // Its route, method and hand-written body stay as written.
        #expect(wire.path == "/v1/calls/c-1/end")
        #expect(wire.method == "POST")
        #expect(wire.body == ["operationId": "op-x", "reason": "remoteEnded"])
    }

    @Test func aUsersRawRequestsCarryItsOwnInstallation() throws {
        let m = try mapping("installation: {in: header, name: X-Device-Id}")
        let mappedGet = PreparedRequest(
            actor: "c", method: "GET", path: "", operation: .get, values: ["callId": "c-1", "userId": "uc"],
            actorInstallation: "c-feed")
        let rawGet = m.apply(raw("c", "GET", "/v1/calls/c-1", installation: "c-feed"))
        #expect(header(rawGet, "x-device-id") == "c-feed")
        #expect(header(rawGet, "x-device-id") == header(m.apply(mappedGet), "x-device-id"))
        // An outsider's raw end (security.outsider-cannot-read) reaches the backend's participant check.
        let rawEnd = m.apply(
            raw(
                "c", "POST", "/v1/calls/c-1/end", body: ["operationId": "op-x", "reason": "remoteEnded"],
                installation: "c-feed"))
        #expect(header(rawEnd, "x-device-id") == "c-feed")
    }

    @Test func aHandWrittenInstallationGoesWhereTheTargetPlacesIt() throws {
        let body: JSONValue = ["operationId": "op-x", "installationId": "someone-elses"]
        let inBody = try mapping("installation: {in: body, name: deviceId}")
            .apply(raw("c", "POST", "/v1/calls/c-1/end", body: body, installation: "c-feed"))
        #expect(inBody.body?["deviceId"] == "someone-elses")
        #expect(inBody.body?["installationId"] == "someone-elses")
        let inQuery = try mapping("installation: {in: query, name: device}")
            .apply(raw("c", "GET", "/v1/calls/c-1?x=1", installation: "c feed"))
        #expect(inQuery.path == "/v1/calls/c-1?x=1&device=c%20feed")
    }

    @Test func whereTheTargetPlacesItAsTheReferenceDesignARawRequestIsUnchanged() throws {
        // The reference design: a raw end says its installation in its body, or deliberately not at all.
        let rawEnd = raw("c", "POST", "/v1/calls/c-1/end", body: ["operationId": "op-x"], installation: "c-feed")
        for m in [TargetMapping(), try mapping("operations: {create: {path: /calls}}")] {
            let wire = m.apply(rawEnd)
            #expect(wire.headers.isEmpty)
            #expect(wire.body == ["operationId": "op-x"])
            #expect(wire.path == "/v1/calls/c-1/end")
        }
        // A route of no operation, and an anonymous request, go as written.
        let m = try mapping("installation: {in: header, name: X-Device-Id}")
        #expect(m.apply(raw("c", "POST", "/v1/elsewhere", installation: "c-feed")).headers.isEmpty)
        let anonymous = PreparedRequest(actor: "anonymous", method: "POST", path: "/v1/calls/c-1/end")
        #expect(m.apply(anonymous).headers.isEmpty)
    }
}
