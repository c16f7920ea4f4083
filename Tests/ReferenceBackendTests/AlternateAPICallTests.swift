import HTTP
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// The alternate API's calls over real HTTP: the answer by media token, hangup, the event feed,
/// and defects that still show through the other shape.
@Suite(.serialized) struct AlternateAPICallTests {
    /// Registers user-b's phone (VoIP) and tablet (FCM) and creates a ringing call from user-a.
    func ringingCall(_ api: AlternateAPIHarness) async throws -> String {
        try await api.register("user-b", device: "b-phone")
        try await api.register("user-b", device: "b-tablet", platform: "fcm")
        let callId = newCallId()
        #expect(try await api.create(callId).status == 201)
        return callId
    }

    @Test func mediaTokenAnswersAndExactlyOneDeviceWins() async throws {
        try await AlternateAPIHarness.run { api in
            let callId = try await ringingCall(api)
            let race = try await api.client.race([
                api.mediaTokenRequest(callId, device: "b-phone", requestId: "media-phone"),
                api.mediaTokenRequest(callId, device: "b-tablet", requestId: "media-tablet"),
            ])
            let replies = try race.entries.map { entry in
                let response = try entry.result.get()
                return APIReply(status: response.status, body: response.body)
            }
            #expect(replies.map(\.status).sorted() == [200, 409], "statuses \(replies.map(\.status))")
            let won = try #require(replies.first { $0.status == 200 })
            let lost = try #require(replies.first { $0.status == 409 })
            let winner = try #require(won["call.answeredByInstallationId"]?.stringValue)
            let loser = winner == "b-phone" ? "b-tablet" : "b-phone"
            #expect(won.keys == ["call", "media"])
            #expect(won["call.state"] == "accepted")
            #expect(won["call.revision"] == "2")
            #expect(won["media.callId"] == .string(callId))
            #expect(won["media.userId"] == "user-b")
            #expect(won["media.installationId"] == .string(winner))
            #expect(won["media.credential"]?.stringValue?.count == 64)
            #expect(won["media.expiresAtMs"]?.int64Value != nil)
            #expect(lost.keys == ["error", "call"])
            #expect(lost.errorCode == "call_already_answered")
            #expect(lost["call"] == won["call"])

            // A replay of the winning request: the same call, and media again.
            let replay = try await api.mediaToken(callId, device: winner, requestId: "media-\(winner.dropFirst(2))")
            #expect(replay.status == 200)
            #expect(replay["call"] == won["call"])
            #expect(replay["media.installationId"] == .string(winner))
            // The winner asking again later, the loser asking again, the same requestId from elsewhere.
            let again = try await api.mediaToken(callId, device: winner, requestId: "media-later")
            #expect(again.status == 200)
            #expect(again["media.credential"] != won["media.credential"])
            let loserAgain = try await api.mediaToken(callId, device: loser, requestId: "media-loser-later")
            #expect(loserAgain.errorCode == "call_already_answered")
            #expect(loserAgain["call.answeredByInstallationId"] == .string(winner))
            let reused = try await api.mediaToken(callId, device: loser, requestId: "media-later")
            #expect(reused.status == 409)
            #expect(reused.errorCode == "idempotency_conflict")
            #expect(reused["call.state"] == "accepted", "every media-token conflict shows the call")

            // The caller gets media once the call is accepted; another user gets nothing.
            let caller = try await api.mediaToken(callId, as: "user-a", device: "a-phone")
            #expect(caller.status == 200)
            #expect(caller.keys == ["call", "media"])
            #expect(caller["media.userId"] == "user-a")
            #expect(caller["media.installationId"] == nil)
            #expect(caller["call.state"] == "accepted")
            #expect(try await api.mediaToken(callId, as: "user-c", device: "c-phone").isError(403, "not_a_participant"))
            #expect(try await api.mediaToken(callId, device: nil).isError(400, "invalid_request"))
            let noRequestId = try await api.send(
                "POST", "/api/v2/calls/\(callId)/media-token", as: "user-b", device: winner, body: [:])
            #expect(noRequestId.isError(400, "invalid_request"))
            #expect(try await api.mediaToken(callId, as: "nobody", device: winner).isError(401, "unauthenticated"))
            #expect(try await api.mediaToken(newCallId(), device: winner).isError(404, "call_not_found"))

            // Once ended: the same refusals as the reference, with the call under `call`.
            let ended = try await api.hangup(callId, as: "user-a", reason: "localHangup")
            #expect(ended["call.state"] == "ended")
            let late = try await api.mediaToken(callId, device: winner, requestId: "media-after-end")
            #expect(late.status == 409)
            #expect(late.keys == ["error", "call"])
            #expect(late.errorCode == "call_ended")
            #expect(late["call.state"] == "ended")
            let callerLate = try await api.mediaToken(callId, as: "user-a", device: "a-phone", requestId: "m-a-2")
            #expect(callerLate.errorCode == "call_ended")
            #expect(callerLate["call.endReason"] == "localHangup")
        }
    }

    @Test func callerMediaBeforeTheAnswerIsAConflictWithTheRingingCall() async throws {
        try await AlternateAPIHarness.run { api in
            let callId = try await ringingCall(api)
            let early = try await api.mediaToken(callId, as: "user-a", device: "a-phone")
            #expect(early.status == 409)
            #expect(early.keys == ["error", "call"])
            #expect(early.errorCode == "call_not_accepted")
            #expect(early["call.state"] == "ringing")
            // A device that is not the callee's cannot answer.
            let stranger = try await api.mediaToken(callId, device: "a-phone")
            #expect(stranger.isError(403, "installation_not_callee"))
            #expect(try await api.send("GET", "/api/v2/calls/\(callId)", as: "user-a")["call.state"] == "ringing")
        }
    }

    @Test func hangupFromADeviceEndsTheCallForTheOthers() async throws {
        try await AlternateAPIHarness.run { api in
            let callId = try await ringingCall(api)
            let declined = try await api.hangup(callId, as: "user-b", device: "b-phone", reason: "declined")
            #expect(declined.status == 200)
            #expect(declined.keys == ["call"])
            #expect(declined["call.state"] == "ended")
            #expect(declined["call.endReason"] == "declined")
            #expect(declined["call.revision"] == "2")
            let replay = try await api.hangup(callId, as: "user-b", device: "b-phone", reason: "declined")
            #expect(replay.json == declined.json)
            // X-Device-Id named the declining device: only the other device hears "declinedElsewhere".
            let tablet = try await api.events("user-b", device: "b-tablet")
            #expect(tablet["events"]?.arrayValue?.map { $0["reason"] } == ["declinedElsewhere"])
            #expect(try await api.events("user-b", device: "b-phone")["events"] == [])
            let caller = try await api.events("user-a", device: "a-phone")
            #expect(caller["events"]?.arrayValue?.map { $0["reason"] } == ["declined"])

            #expect(
                try await api.hangup(callId, as: "user-b", reason: "shrug", requestId: "h-2").isError(
                    400, "invalid_reason"))
            let noRequestId = try await api.send(
                "POST", "/api/v2/calls/\(callId)/hangup", as: "user-a", body: ["reason": "localHangup"])
            #expect(noRequestId.isError(400, "invalid_request"))
            #expect(
                try await api.hangup(callId, as: "user-b", device: "a-phone", reason: "declined", requestId: "h-3")
                    .isError(403, "installation_not_yours"))
            #expect(try await api.hangup(callId, as: "user-c", reason: "declined").isError(403, "not_a_participant"))
            #expect(try await api.hangup(callId, as: "nobody", reason: "declined").isError(401, "unauthenticated"))
        }
    }

    @Test func eventsPageWithAfterAndMaxAndAnUnknownCursorIsAGap() async throws {
        try await AlternateAPIHarness.run { api in
            #expect(try await api.events("user-a", device: "a-phone")["events"] == [])
            var calls: [String] = []
            for _ in 0..<3 {
                let callId = try await ringingCall(api)
                #expect(try await api.hangup(callId, as: "user-b", device: "b-phone", reason: "declined").status == 200)
                calls.append(callId)
            }
            let first = try await api.events("user-a", device: "a-phone", max: "2")
            #expect(first.status == 200)
            #expect(first.keys == ["events", "cursor", "gap"])
            #expect(first["gap"] == false)
            #expect(first["events"]?.arrayValue?.map { $0["callId"] } == calls.prefix(2).map { .string($0) })
            let cursor = try #require(first["cursor"]?.stringValue)
            let second = try await api.events("user-a", device: "a-phone", after: cursor, max: "2")
            #expect(second["events"]?.arrayValue?.map { $0["callId"] } == [.string(calls[2])])
            #expect(second["gap"] == false)
            let end = try #require(second["cursor"]?.stringValue)
            let empty = try await api.events("user-a", device: "a-phone", after: end)
            #expect(empty["events"] == [])
            #expect(empty["cursor"] == .string(end))

            let unknown = try await api.events("user-a", device: "a-phone", after: "not-a-cursor")
            #expect(unknown.status == 200)
            #expect(unknown["gap"] == true)
            #expect(unknown["events"]?.arrayValue?.count == 3)
            let future = try await api.events("user-a", device: "a-phone", after: "999999")
            #expect(future["gap"] == true)

            #expect(try await api.events("user-a", device: nil).isError(400, "invalid_request"))
            #expect(try await api.events("user-a", device: "a-phone", max: "two").isError(400, "invalid_request"))
            #expect(try await api.events("user-a", device: "b-phone").isError(403, "installation_not_yours"))
            #expect(try await api.events("nobody", device: "a-phone").isError(401, "unauthenticated"))
            // The installation comes from X-Device-Id only: an installationId query (another user's) is ignored.
            let query = try await api.send(
                "GET", "/api/events?installationId=b-phone", as: "user-a", device: "a-phone")
            #expect(query.status == 200)
            #expect(query["events"]?.arrayValue?.count == 3)
        }
    }

    @Test func defectsStillShowThroughTheAlternateShape() async throws {
        try await AlternateAPIHarness.run(defects: [.noIdempotency]) { api in
            let callId = newCallId()
            let created = try await api.create(callId)
            #expect(created.status == 201)
            // No idempotency: the replay runs again and finds its own call.
            let replay = try await api.create(callId)
            #expect(replay.errorCode == "call_exists")
        }
        try await AlternateAPIHarness.run(defects: [.identityFromBody, .noMembershipCheck]) { api in
            let callId = newCallId()
            let body = api.createBody(callId).setting("caller", to: ["userId": "user-c", "displayName": "Not Alex"])
            let created = try await api.send("POST", "/api/v2/calls", as: "user-a", body: body)
            #expect(created["call.caller.userId"] == "user-c", "the body's caller passes through to the service")
            #expect(created["call.caller.displayName"] == "Not Alex")
            let outsider = try await api.send("GET", "/api/v2/calls/\(callId)", as: "user-a")
            #expect(outsider.status == 200, "user-a is no participant now, and the defect lets it read")
        }
        try await AlternateAPIHarness.run(defects: [.racyAnswer]) { api in
            let devices = (1...6).map { "b-device-\($0)" }
            for device in devices { try await api.register("user-b", device: device, platform: "fcm") }
            var mostWinners = 0
            for _ in 0..<40 where mostWinners < 2 {
                let callId = newCallId()
                #expect(try await api.create(callId).status == 201)
                let race = try await api.client.race(
                    devices.map { api.mediaTokenRequest(callId, device: $0, requestId: "m-\($0)") })
                let statuses = race.entries.map { (try? $0.result.get())?.status ?? -1 }
                #expect(statuses.allSatisfy { $0 == 200 || $0 == 409 }, "statuses \(statuses)")
                mostWinners = max(mostWinners, statuses.filter { $0 == 200 }.count)
            }
            #expect(mostWinners > 1, "racy-answer let only one device win every time")
        }
    }
}
