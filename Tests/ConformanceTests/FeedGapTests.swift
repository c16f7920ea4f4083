import JSON
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// An explicit gap in any unmistakable shape reads as `gap: true`; silence and "no" read as no gap,
/// so a feed that skips events without saying so still fails the gap checks.
@Suite struct FeedGapTests {
    func mapping(_ extra: String) throws -> TargetMapping {
        try TargetFile.load(text: "baseURL: http://h\n\(TargetFileLoaderTests.users)\n\(extra)", file: "t.yaml")
            .mapping
    }

    /// A Callx target without a target file's mapping: the reference design's shape, read by Callx's
    /// configuration (a target without one is read in the engine's canonical shape, no feed in it).
    let plain = Target(
        name: "t", baseURL: "http://h", accounts: { _, _ in nil }, capabilities: [], appId: "app",
        eventPageLimit: nil, eventRetention: nil)

    @Test func everyExplicitSignalIsAGap() throws {
        let signals: [JSONValue] = [
            true, "cursorUnknownOrExpired", ["reason": "cursorUnknownOrExpired", "resumeCursor": "0"], 3, ["lost"],
        ]
        for s in signals { #expect(FeedGap.isSignalled(s), "\(s.serialized())") }
    }

    @Test func falseNullEmptyAndAbsentAreNoGap() {
        let quiet: [JSONValue?] = [nil, .null, false, "", "  ", "false", 0, [], .object([])]
        for q in quiet { #expect(!FeedGap.isSignalled(q), "\(q?.serialized() ?? "absent")") }
    }

    @Test func aGapObjectReadsAsGapTrueWithOrWithoutATargetFile() throws {
        let page = try JSONValue.parse(
            #"{"events":[],"nextCursor":"0","gap":{"reason":"cursorUnknownOrExpired","resumeCursor":"0"}}"#)
        #expect(plain.normalize(.events, status: 200, json: page).json?["gap"] == .bool(true))
        #expect(TargetMapping().normalize(.events, status: 200, json: page).json?["gap"] == .bool(true))
        let reason = try mapping("operations: {events: {response: {gap: gap.reason}}}")
        let n = reason.normalize(.events, status: 200, json: page)
        #expect(n.json?["gap"] == .bool(true))
        #expect(n.json?["nextCursor"] == "0")
    }

    @Test func aPageWithoutAGapReadsAsGapFalse() throws {
        let page = try JSONValue.parse(#"{"events":[{"eventId":"e1"}],"nextCursor":"4"}"#)
        #expect(plain.normalize(.events, status: 200, json: page).json?["gap"] == .bool(false))
        let silent = try JSONValue.parse(#"{"events":[],"nextCursor":"4","gap":null}"#)
        #expect(TargetMapping().normalize(.events, status: 200, json: silent).json?["gap"] == .bool(false))
    }

    @Test func theDeclaredGapStatusReadsAsAPageWithAGap() throws {
        let m = try mapping("operations: {events: {gapStatus: 410}}")
        let gone = try JSONValue.parse(#"{"nextCursor":"2","error":{"code":"cursorGone","message":"resync"}}"#)
        let n = m.normalize(.events, status: 410, json: gone)
        #expect(n.status == 200)
        #expect(n.json?["gap"] == .bool(true))
        #expect(n.json?["nextCursor"] == "2")
        #expect(n.json?["events"] == .array([]))
        // No body at all: the status alone says it.
        #expect(m.normalize(.events, status: 410, json: nil).json?["gap"] == .bool(true))
        // Another refusal is still a refusal.
        #expect(m.normalize(.events, status: 403, json: ["error": ["code": "x"]]).status == 403)
    }

    @Test func anUndeclaredGapStatusStaysARefusalAndAMappedOneIsNoGap() throws {
        let gone: JSONValue = ["nextCursor": "2", "error": ["code": "cursorGone"]]
        #expect(plain.normalize(.events, status: 410, json: gone).status == 410)
        // `statuses: {410: 200}` says "a 410 is a page", not "a 410 is a gap": the body says no gap.
        let m = try mapping("operations: {events: {statuses: {410: 200}}}")
        #expect(m.normalize(.events, status: 410, json: gone).json?["gap"] == .bool(false))
    }

    @Test func theTargetFileReadsGapStatusAndNamesItsMistakes() throws {
        let list = try mapping("operations: {events: {gapStatus: [409, 410]}}")
        #expect(list[.events].response.gapStatuses == [409, 410])
        func problems(_ operations: String) -> [String] {
            let text = "baseURL: http://h\n\(TargetFileLoaderTests.users)\n\(operations)"
            do throws(SuiteLoadError) {
                _ = try TargetFile.load(text: text, file: "t.yaml")
                return []
            } catch { return error.errors.map(\.description) }
        }
        #expect(
            problems("operations:\n  events: {gapStatuss: 410}").contains {
                $0.hasPrefix("t.yaml:7:12: operations.events: unknown field 'gapStatuss' (did you mean 'gapStatus'?)")
            })
        #expect(
            problems("operations:\n  get: {gapStatus: 410}").contains {
                $0.hasPrefix("t.yaml:7:9: operations.get: 'gapStatus' applies only to events")
            })
        #expect(
            problems("operations:\n  events: {gapStatus: 200}").contains {
                $0.hasPrefix("t.yaml:7:23: operations.events.gapStatus: 200 cannot say 'gap'")
            })
        #expect(
            problems("operations:\n  events: {gapStatus: gone}").contains {
                $0.hasPrefix("t.yaml:7:23: operations.events.gapStatus: expected a whole number")
            })
        #expect(
            problems("operations:\n  events: {gapStatus: 410, statuses: {410: 200}}").contains {
                $0.hasPrefix("t.yaml:7:23: operations.events.gapStatus: 410 is also mapped in 'statuses'")
            })
    }
}
