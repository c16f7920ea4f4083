import Foundation
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck check-payload --profile dialstack|push-service`: the pushes a reference (with and without a defect)
/// sent, rendered as the control API's `GET /v1/captures` answers (secrets redacted), judged by the profile's push
/// rules from a file and from standard input.
@Suite struct CheckPayloadProfileTests {
    /// The control API's answer for every capture of `mocks`.
    static func captures(_ mocks: MockStack) -> String {
        JSONValue.object([("captures", .array(mocks.log.captures().map { $0.json() }))]).serialized()
    }

    static func check(_ document: String, _ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(
            RingcheckBinary.path, ["check-payload"] + arguments + ["-"], input: Array(document.utf8), timeout: 60)
    }

    /// One call to an iPhone (with a VoIP token) and an Android device through the reference push service.
    static func pushServiceCall(_ defects: Set<PushServiceDefect>) async throws -> String {
        let stack = try await PushServiceStack.start(defects: defects)
        let externalId = "ext-" + UUID().uuidString.lowercased()
        try await stack.registerDevice(
            externalId, platform: "ios", token: String(repeating: "a1", count: 32),
            voipToken: String(repeating: "b2", count: 32))
        try await stack.registerDevice(externalId, platform: "android", token: "fcm-" + UUID().uuidString)
        _ = try await stack.notify(PushServiceStack.call([externalId], id: UUID().uuidString.lowercased()))
        _ = await stack.waitForPushes(2)
        let document = captures(stack.mocks)
        await stack.stop()
        return document
    }

    @Test func pushServiceCapturesOfTheConformingReferenceHaveNoViolation() async throws {
        let r = try await Self.check(try await Self.pushServiceCall([]), ["--profile", "push-service"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("checked against the push-service push rules: no violations"), "\(r.stdout)")
        #expect(r.stdout.contains("not judged"), "what the captures alone cannot show is said: \(r.stdout)")
    }

    @Test func aCallSentAsAnAlertViolatesPushServiceCall1() async throws {
        let r = try await Self.check(try await Self.pushServiceCall([.alertForCalls]), ["--profile", "push-service"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("PUSHSVC-CALL-1 MUST headers.apns-push-type"), "\(r.stdout)")
        let ids = Set(
            r.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
                .filter { $0.hasPrefix("PUSHSVC-") })
        #expect(ids == ["PUSHSVC-CALL-1"], "\(r.stdout)")
    }

    /// One wake-up of user-b's phone (VoIP) and tablet (FCM) through the reference DialStack backend, its pushes
    /// carrying the call ID under `callIdKey`: the captures and the call's ID.
    static func dialStackWakeUp(_ defects: Set<DialStackDefect>, callIdKey: String = "call_id") async throws
        -> (document: String, callId: String)
    {
        let stack = try await DialStackReferenceStack.start(defects: defects, callIdKey: callIdKey)
        for (kind, token) in [("apnsVoip", String(repeating: "c3", count: 32)), ("fcm", "fcm-" + UUID().uuidString)] {
            let body = JSONValue.object([
                ("token", .string(token)), ("appId", .string(stack.appId)), ("apnsEnvironment", "sandbox"),
            ])
            let reply = try await stack.api.send(
                "PUT", "/v1/installations/check-\(kind)/push-tokens/\(kind)", as: "user-b", body: body)
            #expect(reply.status == 200, "registering the \(kind) token")
        }
        let callId = "call_" + UUID().uuidString.lowercased()
        try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes())
        // Both pushes, whatever key carries the call (or none does): this stack serves this one call.
        let pushes = await stack.mocks.log.waitFor(
            count: 2, matching: { $0.mock == .apns || $0.mock == .fcm }, timeout: pushWaitLimit)
        #expect(pushes.count == 2, "both devices were pushed")
        let document = captures(stack.mocks)
        await stack.stop()
        return (document, callId)
    }

    @Test func dialStackCapturesAreJudgedByItsPushRules() async throws {
        let clean = try await Self.check(try await Self.dialStackWakeUp([]).document, ["--profile", "dialstack"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("2 captures") || clean.stdout.contains("3 captures"), "\(clean.stdout)")
        #expect(clean.stdout.contains("no violations"), "\(clean.stdout)")
        #expect(clean.stdout.contains("name the calls with --call-id ID"), "\(clean.stdout)")
        let r = try await Self.check(
            try await Self.dialStackWakeUp([.fcmNotificationBlock]).document, ["--profile", "dialstack"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("DIALSTACK-FCM-1 MUST body.message.notification"), "\(r.stdout)")
    }

    /// `--call-id` names the calls the pushes are for: pushes without the call ID break DIALSTACK-PUSH-1, each named;
    /// pushes carrying it under the call library's own key (flutter_callkit_incoming's `id`) pass.
    @Test func dialStackCapturesJudgedWithTheCallIdJudgeDialStackPush1() async throws {
        let missing = try await Self.dialStackWakeUp([.missingCallID])
        let untold = try await Self.check(missing.document, ["--profile", "dialstack"])
        #expect(untold.status == 0, "without --call-id the call ID is not judged: \(untold.stdout)\(untold.stderr)")
        let r = try await Self.check(missing.document, ["--profile", "dialstack", "--call-id", missing.callId])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let findings = r.stdout.split(separator: "\n").filter { $0.contains("DIALSTACK-") }
        #expect(findings.count == 2, "one finding per push: \(r.stdout)")
        #expect(
            findings.allSatisfy { $0.contains("DIALSTACK-PUSH-1 MUST") && $0.contains("[capture #") }, "\(r.stdout)")
        #expect(!r.stdout.contains("name the calls with --call-id"), "\(r.stdout)")
        let flutter = try await Self.dialStackWakeUp([], callIdKey: "id")
        let ok = try await Self.check(
            flutter.document, ["--profile", "dialstack", "--call-id", "call_other", "--call-id", flutter.callId])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("no violations"), "\(ok.stdout)")
    }

    /// One VoIP push through the reference kit server wired to the mock OneSignal (as `--mock-settings` wires it);
    /// the control API's captures and the VoIP app's ID.
    static func oneSignalVoIPPush(_ defects: Set<OneSignalDefect>) async throws -> (document: String, voipAppId: String)
    {
        let mocks = try await MockStack.start(.forTests)
        let env = mocks.settings.environmentDictionary
        let standard = try #require(mocks.providers.oneSignal?.standardApp)
        let voip = try #require(mocks.providers.oneSignal?.voipApp)
        let configuration = OneSignalConfiguration(
            standardApp: OneSignalAppCredentials(id: standard.appID, key: standard.apiKey),
            voipApp: OneSignalAppCredentials(id: voip.appID, key: voip.apiKey),
            apiURL: try #require(env["RINGCHECK_ONESIGNAL_URL"]), caFile: env["RINGCHECK_CA_FILE"], defects: defects)
        let kit = try OneSignalServer(options: .init(configuration: configuration))
        try kit.start()
        let reply = try await runProcess(
            "curl",
            [
                "-s", "-X", "POST", kit.baseURL + "/push/voip", "-H", "content-type: application/json", "-d",
                #"{"userId":"6f1c2a0e-0000-4000-8000-000000000001","data":{"room":"r1"}}"#,
            ], timeout: 30)
        #expect(reply.stdout.contains("delivered"), "the kit answered: \(reply.stdout)")
        _ = await mocks.log.waitFor({ $0.mock == .onesignal }, timeout: .seconds(30))
        let document = captures(mocks)
        await kit.stop()
        await mocks.stop()
        return (document, voip.appID)
    }

    @Test func oneSignalRequestsAreJudgedByTheRequestRules() async throws {
        let clean = try await Self.oneSignalVoIPPush([])
        let ok = try await Self.check(clean.document, ["--profile", "onesignal", "--voip-app-id", clean.voipAppId])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(
            ok.stdout.contains("1 capture, checked against the onesignal push rules: no violations"), "\(ok.stdout)")
        let bad = try await Self.oneSignalVoIPPush([.headingsOnVoip])
        let r = try await Self.check(bad.document, ["--profile", "onesignal", "--voip-app-id", bad.voipAppId])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ONESIGNAL-VOIP-5 MUST body.headings"), "\(r.stdout)")
        // Without the VoIP app's ID (the variable empty) VoIP pushes cannot be told: a usage error.
        let unknown = try await runProcess(
            RingcheckBinary.path, ["check-payload", "--profile", "onesignal", "-"], input: Array(clean.document.utf8),
            timeout: 60, environment: ["RINGCHECK_ONESIGNAL_VOIP_APP_ID": ""])
        #expect(unknown.status == 2, "\(unknown.stdout)\(unknown.stderr)")
        #expect(unknown.stderr.contains("--voip-app-id ID"), "\(unknown.stderr)")
    }

    @Test(
        arguments: [
            (["--profile", "pushservice"], "{}", "did you mean 'push-service'"),
            (["--profile", "push-service", "--kind", "apns"], "{}", "--kind is the callx profile's"),
            (["--profile", "push-service"], #"{"aps":{}}"#, "expected a capture as the control API renders it"),
            (["--profile", "dialstack"], #"{"captures":[{"mock":"apns"}]}"#, "captures[0] is not a capture"),
            (
                ["--profile", "push-service", "--voip-app-id", "x"], "{}",
                "--voip-app-id applies to --profile onesignal"
            ),
            (["--profile", "callx", "--call-id", "c"], "{}", "--call-id applies to --profile dialstack only"),
            (["--call-id", "c"], "{}", "--call-id applies to --profile dialstack only"),
            (
                ["--profile", "onesignal", "--call-id", "c", "--voip-app-id", "v"], "{}",
                "--call-id applies to --profile dialstack only"
            ),
            (
                ["--profile", "dialstack"], #"{"captures":[{"mock":"oauth","headers":[],"outcome":"accepted"}]}"#,
                "no APNS or FCM request"
            ),
            (["--profile", "dialstack"], "{\"captures\": [", "not valid JSON"),
        ] as [([String], String, String)])
    func badInputIsAUsageError(arguments: [String], document: String, message: String) async throws {
        let r = try await Self.check(document, arguments)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
