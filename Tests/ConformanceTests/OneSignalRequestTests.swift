import JSON
import Testing

@testable import Conformance
@testable import OneSignal

/// What the onesignal profile sends: a fresh UUID External ID per scenario user (the seed's kit uses the account's
/// UUID), its requests found by those IDs too, and a target's mapping rendered from the request's members.
@Suite struct OneSignalRequestTests {
    @Test func externalIdsAreFreshUUIDsStableWithinARun() {
        var state = OneSignalRunState()
        let a = state.externalId("a")
        #expect(a.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(a)")
        #expect(state.externalId("a") == a)
        #expect(state.externalId("b") != a)
        var other = OneSignalRunState()
        #expect(other.externalId("a") != a)
    }

    @Test func aRequestNamingOnlyAnExternalIdIsTheRuns() {
        var state = OneSignalRunState()
        let b = state.externalId("b")
        #expect(state.names(#"{"include_aliases":{"external_id":["\#(b)"]}}"#, tag: "r1-abc"))
        #expect(state.names(#"{"data":{"ringcheckRun":"r1-abc"}}"#, tag: "r1-abc"))
        #expect(!state.names(#"{"include_aliases":{"external_id":["someone"]}}"#, tag: "r1-abc"))
    }

    @Test func aMappingFillsThePathAndBodyTemplate() throws {
        let request: [(key: String, value: JSONValue)] = [
            ("userId", "0f0e-1 2"), ("title", "t"), ("body", "b"), ("data", ["k": "v"]),
        ]
        let m = ProfileOperationMapping(
            path: "/v1/users/{userId}/test-push", body: ["heading": "{title}", "payload": "{data}", "o": "{options}"])
        let (path, body) = OneSignalSendStep.render(m, request)
        #expect(path == "/v1/users/0f0e-1%202/test-push")
        // Options not given: the member is left out, not sent as a literal placeholder.
        #expect(try JSONValue.parse(body) == ["heading": "t", "payload": ["k": "v"]])
        let plain = OneSignalSendStep.render(ProfileOperationMapping(path: "/push/user"), request)
        #expect(plain.path == "/push/user")
        #expect(try JSONValue.parse(plain.body) == JSONValue.object(request))
    }
}
