import HTTP
import JSON
import Testing

@testable import ReferenceBackend

@Suite struct EventFeedTests {
    /// A call from user-a to user-b, whose phone (VoIP) and tablet (FCM) are registered.
    func ringingCall(_ backend: BackendHarness) async -> String {
        await backend.register("user-b", installation: "b-phone")
        await backend.register("user-b", installation: "b-tablet", kind: .fcm)
        let call = RandomIdentifier.uuid()
        await backend.create(call)
        return call
    }

    func summary(_ events: [JSONValue]) -> [String] {
        events.map { event in
            let detail = event["reason"]?.stringValue ?? event["answeredByInstallationId"]?.stringValue ?? ""
            return "\(event["type"]?.stringValue ?? "?") \(detail) r\(event["revision"]?.stringValue ?? "?")"
        }
    }

    @Test func answerTellsTheCallerAndEndsTheOtherDevices() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        backend.clock.advance(ms: 5_000)
        await backend.answer(call, installation: "b-phone")
        let callerEvents = await backend.allEvents("user-a", installation: "a-phone")
        #expect(summary(callerEvents) == ["call.accepted b-phone r2"])
        let accepted = callerEvents[0]
        #expect(
            accepted.objectValue?.map(\.key) == [
                "schemaVersion", "eventId", "type", "callId", "revision", "occurredAtMs", "answeredByInstallationId",
            ])
        #expect(accepted["occurredAtMs"]?.int64Value == backend.clock.now)
        #expect(accepted["callId"] == .string(call))
        #expect(
            summary(await backend.allEvents("user-b", installation: "b-tablet")) == ["call.ended answeredElsewhere r2"])
        #expect(await backend.allEvents("user-b", installation: "b-phone").isEmpty)
    }

    @Test func callerCancelReachesEveryCalleeDevice() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        await backend.end(call, as: "user-a", reason: "callerCancelled")
        for device in ["b-phone", "b-tablet"] {
            #expect(
                summary(await backend.allEvents("user-b", installation: device)) == ["call.ended callerCancelled r2"])
        }
        #expect(await backend.allEvents("user-a", installation: "a-phone").isEmpty)
    }

    @Test func declineTellsTheCallerAndTheOtherDevices() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        await backend.end(call, as: "user-b", reason: "declined", installation: "b-phone")
        #expect(summary(await backend.allEvents("user-a", installation: "a-phone")) == ["call.ended declined r2"])
        #expect(
            summary(await backend.allEvents("user-b", installation: "b-tablet")) == ["call.ended declinedElsewhere r2"])
        #expect(await backend.allEvents("user-b", installation: "b-phone").isEmpty)
    }

    @Test func hangUpAfterAnswerReachesTheOtherPartyOnly() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        await backend.answer(call, installation: "b-phone")
        await backend.end(call, as: "user-a", reason: "localHangup")
        #expect(summary(await backend.allEvents("user-b", installation: "b-phone")) == ["call.ended remoteEnded r3"])
        #expect(
            summary(await backend.allEvents("user-b", installation: "b-tablet")) == ["call.ended answeredElsewhere r2"])

        let second = RandomIdentifier.uuid()
        await backend.create(second)
        await backend.answer(second, installation: "b-tablet")
        await backend.end(second, as: "user-b", reason: "localHangup", installation: "b-tablet")
        let caller = await backend.allEvents("user-a", installation: "a-phone").filter {
            $0["callId"] == .string(second)
        }
        #expect(summary(caller) == ["call.accepted b-tablet r2", "call.ended remoteEnded r3"])
    }

    @Test func expiryIsUnansweredForBothSides() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        backend.clock.advance(ms: 29_999)
        #expect(await backend.allEvents("user-a", installation: "a-phone").isEmpty)
        backend.clock.advance(ms: 1)
        #expect(summary(await backend.allEvents("user-a", installation: "a-phone")) == ["call.ended unanswered r2"])
        #expect(summary(await backend.allEvents("user-b", installation: "b-phone")) == ["call.ended unanswered r2"])
        let snapshot = await backend.get(call, as: "user-b")
        #expect(snapshot["state"] == "ended")
        #expect(snapshot["endedAtMs"]?.int64Value == snapshot["expiresAtMs"]?.int64Value)
    }

    @Test func expiryHappensWithoutAnyReader() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        backend.clock.advance(ms: 31_000)
        #expect(try backend.service.expireDueCalls() == 1)
        #expect(try backend.store.transaction { tx in try tx.call(call)?.state } == .ended)
    }

    @Test func pagingDeliversEachEventOnce() async throws {
        let backend = try BackendHarness()
        await backend.register("user-b", installation: "b-phone")
        var expected: [String] = []
        for _ in 0..<7 {
            let call = RandomIdentifier.uuid()
            await backend.create(call)
            await backend.end(call, as: "user-b", reason: "declined")
            expected.append(call)
        }
        var cursor: String?
        var seen: [String] = []
        var eventIds = Set<String>()
        for _ in 0..<20 {
            let page = await backend.events("user-a", installation: "a-phone", cursor: cursor, limit: 3)
            #expect(page.status == 200)
            #expect(page["gap"] == false)
            let items = page["events"]?.arrayValue ?? []
            seen += items.compactMap { $0["callId"]?.stringValue }
            for item in items { eventIds.insert(item["eventId"]?.stringValue ?? "") }
            cursor = page["nextCursor"]?.stringValue
            if items.isEmpty { break }
        }
        #expect(seen == expected)
        #expect(eventIds.count == 7)
        // Reading again from the last cursor gives nothing new.
        let again = await backend.events("user-a", installation: "a-phone", cursor: cursor)
        #expect(again["events"] == [])
        #expect(again["nextCursor"]?.stringValue == cursor)
    }

    @Test func tooOldAndUnknownCursorsGetAnExplicitGap() async throws {
        let backend = try BackendHarness(eventRetention: 3)
        await backend.register("user-b", installation: "b-phone")
        let first = await backend.events("user-a", installation: "a-phone")
        let start = first["nextCursor"]?.stringValue
        for _ in 0..<5 {
            let call = RandomIdentifier.uuid()
            await backend.create(call)
            await backend.end(call, as: "user-b", reason: "declined")
        }
        let old = await backend.events("user-a", installation: "a-phone", cursor: start)
        #expect(old["gap"] == true)
        #expect(old["events"]?.arrayValue?.count == 3)  // what retention kept
        let unknown = await backend.events("user-a", installation: "a-phone", cursor: "999999")
        #expect(unknown["gap"] == true)
        let garbage = await backend.events("user-a", installation: "a-phone", cursor: "abc")
        #expect(garbage["gap"] == true)
        let resumed = await backend.events("user-a", installation: "a-phone", cursor: old["nextCursor"]?.stringValue)
        #expect(resumed["gap"] == false)
        #expect(resumed["events"] == [])
    }

    @Test func feedNeedsAnInstallationOfTheReader() async throws {
        let backend = try BackendHarness()
        #expect(await backend.request("GET", "/v1/call-events", as: "user-a").status == 400)
        #expect(await backend.request("GET", "/v1/call-events?installationId=a-phone").status == 401)
        await backend.register("user-b", installation: "b-phone")
        #expect(await backend.events("user-a", installation: "b-phone").errorCode == "installation_not_yours")
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer token-user-a")
        headers.add("x-installation-id", "a-phone")
        let viaHeader = await backend.api.handle(
            HTTPRequest(method: "GET", target: "/v1/call-events", headers: headers))
        #expect(viaHeader.status == 200)
    }

    @Test func everyEventHasAUniqueEventId() async throws {
        let backend = try BackendHarness()
        let call = await ringingCall(backend)
        await backend.answer(call, installation: "b-phone")
        await backend.end(call, as: "user-b", reason: "localHangup", installation: "b-phone")
        let rows = try backend.store.database.withConnection { c in try c.query("SELECT event_id FROM events") }
        #expect(rows.count == 3)
        #expect(Set(rows.compactMap { $0.string("event_id") }).count == 3)
    }
}
