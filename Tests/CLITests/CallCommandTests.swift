import Foundation
import JSON
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck call` end to end through the built binary, against the embedded reference backend.
@Suite struct CallCommandTests {
    static let plain = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }

    static func call(_ arguments: [String], timeout: Double = 40) async throws -> ProcessResult {
        try await RingcheckBinary.run(["call"] + arguments, timeout: timeout, environment: plain)
    }

    /// The `--json` lines, each parsed; records a failure for a line that is not JSON.
    static func lines(_ r: ProcessResult) -> [JSONValue] {
        r.stdout.split(separator: "\n").compactMap { line in
            let parsed = try? JSONValue.parse(Array(line.utf8))
            #expect(parsed != nil, "not JSON: \(line)")
            return parsed
        }
    }

    /// Runs `ringcheck call` with `arguments` and expects exit `status` and a text output showing `parts` in order.
    static func expectCall(
        _ arguments: [String], exits status: Int32, showing parts: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        let r = try await call(arguments)
        #expect(r.status == status, "\(r.stdout)\n\(r.stderr)", sourceLocation: sourceLocation)
        expectInOrder(r.stdout, parts, sourceLocation: sourceLocation)
        return r
    }

    /// The position of the first line containing each text, in order; fails when one is missing or out of order.
    static func expectInOrder(_ text: String, _ parts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var from = text.startIndex
        for part in parts {
            guard let r = text.range(of: part, range: from..<text.endIndex) else {
                Issue.record("'\(part)' missing (or out of order) in:\n\(text)", sourceLocation: sourceLocation)
                return
            }
            from = r.upperBound
        }
    }

    /// No account token or full device token reaches the output.
    static func expectNoSecrets(_ r: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.stdout.contains("token-user"), sourceLocation: sourceLocation)
        let hex64 = try! Regex("[0-9a-f]{64}")
        #expect(r.stdout.firstMatch(of: hex64) == nil, "a VoIP token in the output", sourceLocation: sourceLocation)
        #expect(!r.stdout.contains(":APA91b"), "an FCM token in the output", sourceLocation: sourceLocation)
    }

    @Test func answeredByAVirtualPhoneThenHungUpExitsZero() async throws {
        let r = try await Self.expectCall(
            ["--to", "user-b", "--auto-answer", "0.5", "--hangup-after", "0.5"], exits: 0,
            showing: [
                // The caller's feed is read through an installation registered first, as a real app's is.
                "registered virtual installation for user-a", "registered virtual phone for user-b", "created call",
                "APNs sandbox accepted invitation to phone",
                "virtual phone answers", "event call.accepted", "answered by installation", "(phone) after ",
                "hanging up after 0.5s", "ended: remoteEnded by caller",
                // Once the call is over, what it registered is deleted again, newest first.
                "removed virtual tablet of user-b: DELETE ", "removed virtual phone of user-b: DELETE ",
                "removed virtual installation of user-a: DELETE ", "Outcome: answered",
            ])
        #expect(r.stdout.contains("FCM accepted invitation to tablet (priority HIGH, ttl 30s)"))
        #expect(r.stdout.contains("apns-expiration 0"))
        // The tablet stops ringing: a stop signal reaches it.
        #expect(r.stdout.contains("FCM accepted call.ended (answeredElsewhere) to tablet"))
        #expect(!r.stdout.contains("\u{1B}["))
        Self.expectNoSecrets(r)
    }

    @Test func keepDevicesLeavesThemRegistered() async throws {
        let r = try await Self.expectCall(
            ["--to", "user-b", "--auto-decline", "0.2", "--keep-devices"], exits: 10,
            showing: ["registered virtual phone for user-b", "virtual phone declines", "Outcome: declined"])
        #expect(!r.stdout.contains("removed virtual"), "\(r.stdout)")
    }

    @Test func autoAnswerWithoutAValueAnswersAfterOneSecond() async throws {
        let r = try await Self.call([
            "--to", "user-c", "--as", "dana", "--auto-answer", "--hangup-after", "0.2", "--json",
        ])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let lines = Self.lines(r)
        let answered = try #require(lines.first { $0["kind"] == "answered" })
        #expect((answered["afterMs"]?.int64Value ?? 0) >= 1_000, "\(answered.serialized())")
        // A name that is not a test user is added to the embedded backend.
        #expect(
            lines.first { $0["kind"] == "created" }?["message"]?.stringValue?.contains("from dana to user-c") == true)
    }

    @Test func cancelledAfterOneSecondExitsTwelve() async throws {
        let r = try await Self.expectCall(
            ["--to", "user-b", "--cancel-after", "1"], exits: 12,
            showing: [
                "created call", "cancelling after 1s", "(callerCancelled) → 200 ended",
                "ended: callerCancelled by caller",
                "Outcome: cancelled", "(exit 12)",
            ])
        #expect(r.stdout.contains("FCM accepted call.ended (callerCancelled) to tablet"))
        #expect(!r.stdout.contains("answered by"))
    }

    @Test func unansweredWhenTheShortRingRunsOutExitsEleven() async throws {
        let r = try await Self.expectCall(
            ["--to", "user-b", "--ring-timeout", "2"], exits: 11,
            showing: [
                "rings for 2s", "FCM accepted invitation to tablet (priority HIGH, ttl 2s)", "event call.ended",
                "(unanswered)", "ended: unanswered by backend", "Outcome: unanswered", "(exit 11)",
            ])
        // The backend, not the caller, ended it: the caller sent no end request.
        #expect(!r.stdout.contains("POST "))
    }

    @Test func declinedByAVirtualPhoneExitsTen() async throws {
        let r = try await Self.expectCall(
            ["--to", "user-b", "--auto-decline=0.3"], exits: 10,
            showing: [
                "APNs sandbox accepted invitation to phone", "virtual phone declines", "ended: declined by callee",
                "Outcome: declined", "(exit 10)",
            ])
        // The feed's event may come before or after the decline's answer tells the caller the call ended.
        let event = r.stdout.split(separator: "\n").first { $0.contains("event call.ended") }
        #expect(event?.contains("(declined)") == true, "\(r.stdout)")
    }

    @Test func jsonLinesParseAndTellTheCallInOrder() async throws {
        let r = try await Self.call(["--to", "user-b", "--auto-answer", "0.2", "--hangup-after", "0.3", "--json"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let lines = Self.lines(r)
        let kinds = lines.compactMap { $0["kind"]?.stringValue }
        #expect(kinds.count == lines.count)
        func first(_ kind: String, _ match: (JSONValue) -> Bool = { _ in true }) -> Int {
            lines.firstIndex { $0["kind"]?.stringValue == kind && match($0) } ?? -1
        }
        let created = first("created")
        let invitation = first("push") { $0["type"] == "call.invited" && $0["accepted"] == .bool(true) }
        let answer = first("action") { $0["action"] == "answer" }
        let accepted = first("event") { $0.value(atPath: "event.type") == "call.accepted" }
        let answered = first("answered")
        let ended = first("ended")
        #expect(created >= 0 && invitation > created && answer > invitation, "\(kinds)")
        // The caller learns of the answer from the virtual phone's answer or from the feed's event, whichever
        // comes first, and the answer's line is written once its reply is back: on a busy machine the feed's
        // read lags, or the reply does (the event and the answer seen before the answer's own line, in a full
        // test run), so neither is ordered against the answer's line.
        #expect(accepted > invitation && answered > invitation && ended > answered, "\(kinds)")
        #expect(kinds.last == "summary")
        let summary = try #require(lines.last)
        #expect(summary["outcome"] == "answered")
        #expect(summary["exitStatus"] == .int(0))
        #expect(summary["endReason"] == "remoteEnded")
        #expect(summary["callId"] == lines[created]["callId"])
        #expect(summary.value(atPath: "invitations.accepted") == .int(2))
        #expect(lines[answered]["installationId"]?.stringValue?.hasSuffix("-phone") == true)
        #expect(lines[invitation]["t"]?.doubleValue ?? -1 >= 0)
        Self.expectNoSecrets(r)
    }

    @Test func ctrlCWhileRingingCancelsTheCall() async throws {
        let dir = TemporaryDirectory()
        let out = dir.file("stdout")
        let pid = try MockStackProcess.spawn(
            // The call rings for ten minutes: a busy machine may hold this test's polling back for tens of
            // seconds, and the interrupt must still find it ringing.
            [RingcheckBinary.path, "call", "--to", "user-b", "--ring-timeout", "600", "--json"], stdout: out,
            stderr: dir.file("stderr"))
        // Killed (and reaped) only if the test ends before it was reaped: once reaped, its pid may belong to
        // another process (pids wrap at 32,768 here, and a test run starts thousands).
        var reaped = false
        defer { if !reaped { MockStackProcess.kill(pid) } }
        // Interrupt once the invitations are out.
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            if text.contains("\"type\":\"call.invited\"") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGINT)
        let status = await offPool { MockStackProcess.wait(pid, timeout: 20) }
        reaped = status != nil
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        #expect(status == 12, "\(text)")
        Self.expectInOrder(
            text, ["\"kind\":\"note\",\"message\":\"interrupted: cancelling the call\"", "callerCancelled"])
        let summary = try #require(text.split(separator: "\n").last.flatMap { try? JSONValue.parse(Array($0.utf8)) })
        #expect(summary["outcome"] == "cancelled")
        #expect(summary["interrupted"] == .bool(true))
    }

    @Test func coloursOnATerminalUnlessNoColor() async throws {
        guard await processAvailable("script") else { return }
        // `script` gives the command a terminal; its output is the terminal's.
        let command = "'\(RingcheckBinary.path)' call --to user-b --auto-decline 0.1"
        let base = ProcessInfo.processInfo.environment.merging(["TERM": "xterm", "NO_COLOR": ""]) { $1 }
        let tty = try await runProcess("script", ["-qec", command, "/dev/null"], timeout: 40, environment: base)
        #expect(tty.stdout.contains("\u{1B}[36mAPNs sandbox accepted invitation to phone"), "\(tty.stdout)")
        #expect(tty.stdout.contains("\u{1B}[1;33mOutcome: declined"))
        let plain = try await runProcess(
            "script", ["-qec", command, "/dev/null"], timeout: 40, environment: base.merging(["NO_COLOR": "1"]) { $1 })
        #expect(plain.stdout.contains("Outcome: declined"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("\u{1B}["))
    }

    @Test func helpDocumentsOptionsAndExitStatuses() async throws {
        let r = try await RingcheckBinary.run(["call", "--help"])
        #expect(r.status == 0)
        for text in [
            "--to <USER>", "--auto-answer [<S>]", "--auto-decline [<S>]", "--cancel-after <S>", "--hangup-after <S>",
            "--ring-timeout <S>", "--keep-devices", "--json", "EXIT STATUS", "10  declined", "11  unanswered",
            "12  cancelled",
            "EXAMPLES",
        ] {
            #expect(r.stdout.contains(text), "help lacks '\(text)'")
        }
        let top = try await RingcheckBinary.run(["--help"])
        #expect(top.stdout.contains("call"))
    }

    @Test func usageErrorsExitTwo() async throws {
        let cases: [([String], String)] = [
            ([], "--to"),
            (["--to", "user-b", "--cancel-after", "1", "--hangup-after", "2"], "exclude each other"),
            (["--to", "user-b", "--auto-answer", "--auto-decline"], "exclude each other"),
            (["--to", "user-b", "--auto-answer", "soon"], "--auto-answer"),
            (["--to", "user-b", "--ring-timeout", "0"], "--ring-timeout"),
            (["--to", "user-a"], "same user"),
            (["--to", "user-b", "--reference-defect", "nope"], "unknown defect"),
            (["--to", "user-b", "--target", "missing-backend.yaml"], "missing-backend.yaml"),
        ]
        for (arguments, message) in cases {
            let r = try await Self.call(arguments)
            #expect(r.status == 2, "\(arguments): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
    }
}
