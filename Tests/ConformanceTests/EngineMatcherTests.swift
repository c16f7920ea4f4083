import JSON
import PushMocks
import Testing

@testable import Conformance

/// References, interpolation and matchers as the engine evaluates them.
@Suite struct EngineMatcherTests {
    let resolver = ValueResolver(saved: [
        "call": ["callId": "c-1", "revision": "2", "expiresAtMs": 1_790_000_030_000],
        "devices": ["b-phone": ["installationId": "i-1"]],
    ])

    @Test func resolvesReferencesInterpolationAndLiterals() throws {
        #expect(try resolver.resolve("$call.callId") == "c-1")
        #expect(try resolver.resolve("/v1/calls/${call.callId}/end") == "/v1/calls/c-1/end")
        #expect(try resolver.resolve("$$call") == "$call")
        #expect(try resolver.resolve(["a": "$devices.b-phone.installationId"]) == ["a": "i-1"])
        #expect(try resolver.resolve("$call.expiresAtMs") == 1_790_000_030_000)
    }

    @Test func aReferenceToNothingSavedIsAnError() {
        #expect(throws: ReferenceError.self) { try resolver.resolve("$missing.callId") }
        #expect(throws: ReferenceError.self) { try resolver.resolve("$call.nothing") }
    }

    @Test func matchersHoldAndReportMismatches() throws {
        let doc: JSONValue = [
            "state": "accepted", "revision": "2", "n": 5, "video": true,
            "headers": ["apns-expiration": "0"], "list": [1, 2],
        ]
        func m(_ path: String, _ c: MatchCondition) -> [PathMatcher] { [PathMatcher(path: path, conditions: [c])] }
        #expect(MatcherEvaluator.holds(m("state", .equals("accepted")), in: doc))
        #expect(!MatcherEvaluator.holds(m("state", .equals("ringing")), in: doc))
        #expect(MatcherEvaluator.holds(m("state", .notEquals("ringing")), in: doc))
        #expect(MatcherEvaluator.holds(m("missing", .notEquals("x")), in: doc))
        #expect(MatcherEvaluator.holds(m("revision", .matches("^[1-9][0-9]*$")), in: doc))
        #expect(!MatcherEvaluator.holds(m("revision", .matches("^1")), in: doc))
        #expect(MatcherEvaluator.holds(m("state", .oneOf(["ended", "accepted"])), in: doc))
        #expect(MatcherEvaluator.holds(m("n", .type(.integer)), in: doc))
        #expect(!MatcherEvaluator.holds(m("revision", .type(.integer)), in: doc))
        #expect(MatcherEvaluator.holds(m("n", .range(min: 1, max: 5)), in: doc))
        #expect(!MatcherEvaluator.holds(m("n", .range(min: 6, max: nil)), in: doc))
        #expect(MatcherEvaluator.holds(m("notification", .absent(true)), in: doc))
        #expect(!MatcherEvaluator.holds(m("video", .absent(true)), in: doc))
        #expect(MatcherEvaluator.holds(m("headers.apns-expiration", .equals("0")), in: doc))
        #expect(MatcherEvaluator.holds(m("list.1", .equals(2)), in: doc))
        let problems = MatcherEvaluator.mismatches(m("state", .equals("ringing")), in: doc)
        #expect(problems == ["state: expected \"ringing\", got \"accepted\""])
    }

    @Test func aFieldBelowOneThatFailedItsOwnCheckIsNotJudged() {
        let shape = PathMatcher(path: "caller", conditions: [.type(.object)], requirement: "CALLX-CALL-3")
        let identity = PathMatcher(path: "caller.userId", conditions: [.equals("u-a")])
        let flat: JSONValue = ["callerUserId": "u-c", "displayName": "Mallory"]
        // A flat snapshot fails the shape only: its caller cannot be read where the seed puts it.
        let onFlat = MatcherEvaluator.mismatchesByRequirement([shape, identity], in: flat, fallback: "CALLX-AUTH-1")
        #expect(onFlat.map(\.requirement) == ["CALLX-CALL-3"])
        // Where the caller can be read, the identity is judged, and a claimed caller fails it (not vacuously).
        let claimed: JSONValue = ["caller": ["userId": "u-c"]]
        let onClaimed = MatcherEvaluator.mismatchesByRequirement(
            [shape, identity], in: claimed, fallback: "CALLX-AUTH-1")
        #expect(onClaimed.map(\.requirement) == ["CALLX-AUTH-1"])
        let own: JSONValue = ["caller": ["userId": "u-a"]]
        #expect(MatcherEvaluator.mismatchesByRequirement([shape, identity], in: own, fallback: "CALLX-AUTH-1").isEmpty)
    }

    @Test func resolvedMatchersCompareWithSavedValues() throws {
        let matchers = try resolver.resolve([
            PathMatcher(path: "revision", conditions: [.equals("$call.revision")]),
            PathMatcher(path: "expiresAtMs", conditions: [.range(min: "$call.expiresAtMs", max: nil)]),
        ])
        #expect(MatcherEvaluator.holds(matchers, in: ["revision": "2", "expiresAtMs": 1_790_000_030_000]))
        #expect(!MatcherEvaluator.holds(matchers, in: ["revision": "3", "expiresAtMs": 1_790_000_030_000]))
    }

    @Test func withinMeasuresTheDistanceFromASavedValue() throws {
        let matchers = try resolver.resolve([
            PathMatcher(
                path: "expiresAtMs", conditions: [.within(of: "$call.expiresAtMs", min: 1, max: 3_600_000)])
        ])
        #expect(MatcherEvaluator.holds(matchers, in: ["expiresAtMs": 1_790_000_330_000]))
        #expect(MatcherEvaluator.holds(matchers, in: ["expiresAtMs": 1_790_003_630_000]))
        #expect(!MatcherEvaluator.holds(matchers, in: ["expiresAtMs": 1_790_003_630_001]))
        #expect(!MatcherEvaluator.holds(matchers, in: ["expiresAtMs": 1_790_000_030_000]))
        #expect(!MatcherEvaluator.holds(matchers, in: ["expiresAtMs": "1790000330000"]))
        #expect(!MatcherEvaluator.holds(matchers, in: [:]))
        let problems = MatcherEvaluator.mismatches(matchers, in: ["expiresAtMs": 1_792_592_030_000])
        #expect(
            problems == [
                "expiresAtMs: expected at most 3600000 past 1790000030000, got 1792592030000 (2592000000)"
            ])
    }

    @Test func virtualDeviceTokensHaveTheProvidersShapes() {
        let apns = RandomText.hex(bytes: 32)
        #expect(apns.count == 64 && apns.allSatisfy(\.isHexDigit))
        #expect(RandomText.hex(bytes: 32) != apns)
        let fcm = RandomText.fcmToken()
        #expect(fcm.contains(":APA91b") && fcm.count > 100)
        let uuid = RandomText.uuid()
        #expect(uuid.count == 36 && uuid.split(separator: "-").count == 5)
        #expect(RequestTemplate.fill("/v1/calls/{callId}", ["callId": "a b/c"]) == "/v1/calls/a%20b%2Fc")
    }

    /// The one-pass fill gives what replacing each `{name}` in turn gave: unknown and unclosed braces kept,
    /// every occurrence filled, values percent-encoded byte by byte (UTF-8 included), never re-filled.
    @Test func fillReplacesEveryKnownPlaceholderOnce() {
        let values = ["callId": "c-1", "user": "é {callId}~"]
        #expect(
            RequestTemplate.fill("/u/{user}/c/{callId}/{callId}{other}{", values)
                == "/u/%C3%A9%20%7BcallId%7D~/c/c-1/c-1{other}{")
        #expect(RequestTemplate.fill("{{callId}}", values) == "{c-1}")
        #expect(RequestTemplate.fill("", values) == "")
        #expect(RequestTemplate.percentEncode("AZaz09-._~ /%") == "AZaz09-._~%20%2F%25")
    }
}

/// The provider keys the engine looks for in every push.
@Suite struct EngineProviderSecretTests {
    @Test func theMocksKeysAreKnownSecrets() async throws {
        let mocks = try await PushMocks.MockStack.start(.forTests)
        defer { mocks.stop() }
        let lines = ScenarioEngine.keyLines(mocks)
        // The .p8 key and the service account's key each give at least one base64 line.
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.count >= 16 && !$0.contains("-----") })
    }
}

/// What `expectNotLogged` shows of a leaking log line.
@Suite struct BackendLogEvidenceTests {
    @Test func everySecretOnTheLineIsShortenedAndTheLineCut() {
        let token = String(repeating: "ab", count: 32)
        let other = String(repeating: "cd", count: 32)
        let payload = "{\"aps\":{},\"token\":\"\(token)\"}"
        let line = "push token=\(token) other=\(other) payload=\(payload)"
        let shown = ScenarioRun.redacted(line, [token, other, payload])
        #expect(!shown.contains(token) && !shown.contains(other) && !shown.contains(payload))
        #expect(shown.contains("token=abab…abab other=cdcd…cdcd"))
        let long = ScenarioRun.redacted(String(repeating: "x", count: 5_000), [token])
        #expect(long.count == 2_001 && long.hasSuffix("…"))
    }
}
