import JSON
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// The mapping layer: canonical requests become the target's, its answers become canonical.
@Suite struct TargetMappingTests {
    func mapping(_ extra: String) throws -> TargetMapping {
        try TargetFile.load(text: "baseURL: http://h\n\(TargetFileLoaderTests.users)\n\(extra)", file: "t.yaml")
            .mapping
    }

    /// A canonical answer from device installation `inst-1`.
    let answer = PreparedRequest(
        actor: "b-phone", method: "POST", path: "/v1/calls/c-1/answer", credentials: ["authorization": "Bearer tb"],
        body: ["operationId": "op-1", "installationId": "inst-1"], operation: .answer,
        values: ["callId": "c-1", "userId": "ub"])

    func header(_ p: PreparedRequest, _ name: String) -> String? { p.headers.first { $0.0 == name }?.1 }

    @Test func theReferenceMappingSendsTheReferenceRequest() {
        let wire = TargetMapping().apply(answer)
        #expect(wire.method == "POST")
        #expect(wire.path == "/v1/calls/c-1/answer")
        #expect(wire.body?["installationId"] == "inst-1")
        #expect(wire.body?["operationId"] == "op-1")
        let register = PreparedRequest(
            actor: "b-phone", method: "PUT", path: "", body: ["token": "abc", "appId": "com.x"],
            operation: .registerToken, values: ["installationId": "i/2", "kind": "fcm", "userId": "ub"])
        #expect(TargetMapping().apply(register).path == "/v1/installations/i%2F2/push-tokens/fcm")
        #expect(TargetMapping().apply(register).body?["installationId"] == nil)
    }

    @Test func theInstallationGoesInAHeader() throws {
        let m = try mapping("installation: {in: header, name: X-Device-Id}")
        let wire = m.apply(answer)
        #expect(header(wire, "x-device-id") == "inst-1")
        #expect(wire.body?["installationId"] == nil)
        #expect(wire.path == "/v1/calls/c-1/answer")
    }

    @Test func theInstallationGoesInABodyField() throws {
        let m = try mapping("installation: {in: body, name: deviceId}")
        let wire = m.apply(answer)
        #expect(wire.body?["deviceId"] == "inst-1")
        #expect(wire.body?["installationId"] == nil)
        #expect(header(wire, "x-device-id") == nil)
    }

    @Test func theInstallationGoesInThePathOrTheQuery() throws {
        let m = try mapping(
            """
            operations:
              answer: {path: "/devices/{installationId}/calls/{callId}/accept", installation: {in: path}}
              events: {path: "/feed?from={cursor}", installation: {in: query, name: device}}
            """)
        let wire = m.apply(answer)
        #expect(wire.path == "/devices/inst-1/calls/c-1/accept")
        #expect(wire.body?["installationId"] == nil)
        let events = PreparedRequest(
            actor: "a", method: "GET", path: "", operation: .events, values: ["installationId": "f-1", "userId": "ua"])
        #expect(m.apply(events).path == "/feed?device=f-1")
        var withCursor = events
        withCursor.values["cursor"] = "7 8"
        #expect(m.apply(withCursor).path == "/feed?from=7%208&device=f-1")
    }

    @Test func bodyTemplatesTakeTypedValuesAndKeepAScenariosExtraFields() throws {
        let m = try mapping(
            """
            operations:
              create:
                body: {id: "{callId}", to: "{calleeUserId}", key: "op:{operationId}", video: "{video}", v: 2}
            """)
        let create = PreparedRequest(
            actor: "a", method: "POST", path: "/v1/calls",
            body: ["callId": "c-9", "calleeUserId": "ub", "operationId": "o", "video": true, "displayName": "Mallory"],
            operation: .create, values: ["userId": "ua"], extraKeys: ["displayName"])
        let body = try #require(m.apply(create).body)
        #expect(body["id"] == "c-9")
        #expect(body["key"] == "op:o")
        #expect(body["video"] == .bool(true))
        #expect(body["v"] == .int(2))
        #expect(body["displayName"] == "Mallory")
        #expect(body["callId"] == nil)
        var plain = create
        plain.body = ["callId": "c-9", "calleeUserId": "ub", "operationId": "o"]
        plain.extraKeys = []
        #expect(m.apply(plain).body?["video"] == nil)
    }

    @Test func answersAreReadBackIntoTheReferenceShape() throws {
        let m = try mapping(
            """
            operations:
              answer:
                response: {snapshot: call, media: media, winner: call.acceptedBy}
                statuses: {412: 409}
              events:
                response: {events: data.items, nextCursor: cursor}
            """)
        let conflict: JSONValue = ["error": ["code": "conflict"], "call": ["callId": "c-1", "state": "accepted"]]
        let n = m.normalize(.answer, status: 412, json: conflict)
        #expect(n.status == 409)
        #expect(n.json?["state"] == "accepted")
        #expect(n.json?["error"]?["code"] == "conflict")
        #expect(n.json?["call"] == nil)
        #expect(n.media == nil)
        let won: JSONValue = [
            "call": ["state": "accepted", "acceptedBy": "inst-1"], "media": ["token": "secret-123456"],
        ]
        let ok = m.normalize(.answer, status: 200, json: won)
        #expect(ok.json?["answeredByInstallationId"] == "inst-1")
        #expect(ok.media?["token"] == "secret-123456")
        let feed: JSONValue = ["data": ["items": [["type": "call.ended"]]], "cursor": "5", "gap": false]
        let events = m.normalize(.events, status: 200, json: feed)
        #expect(events.json?["events"]?.arrayValue?.count == 1)
        #expect(events.json?["nextCursor"] == "5")
        #expect(events.json?["gap"] == .bool(false))
    }

    @Test func rawRequestsApplyOnlyWhereTheirRouteIsMappedAsTheReference() throws {
        let raw = RawRequestStep(
            actor: nil, auth: .none, method: "POST", path: "/v1/calls/${call.callId}/end", headers: [:], body: nil,
            options: RequestOptions())
        let scenario = Scenario(
            id: "x.raw", title: "t", requirements: ["R"],
            steps: [ScenarioStep(.request(raw), path: "steps[2]", mark: YAMLMark(line: 1, column: 1))])
        #expect(TargetMapping().rawRequestProblem(scenario) == nil)
        #expect(try mapping("operations: {create: {path: /calls}}").rawRequestProblem(scenario) == nil)
        let reason = try mapping("operations: {end: {path: '/calls/{callId}/hangup'}}").rawRequestProblem(scenario)
        #expect(
            reason
                == "steps[2] sends a raw request to the reference design's POST /v1/calls/${call.callId}/end, and the target maps end to POST /calls/{callId}/hangup"
        )
    }
}
