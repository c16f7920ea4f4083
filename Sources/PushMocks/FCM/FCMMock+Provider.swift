import HTTP
import Signing

extension MockProviderID {
    public static let fcm = MockProviderID("fcm")
}

extension PushChannel {
    /// FCM HTTP v1 messages.
    public static let fcm = PushChannel("fcm", carrier: FCMMock.self)
}

extension ImpersonatedHost {
    public static let fcm = ImpersonatedHost(name: "fcm.googleapis.com", ports: [443])
}

/// FCM as a registered provider: `/v1/…` on the Google listener it shares with the OAuth mock.
extension FCMMock: MockProvider {
    public static func make(_ context: MockProviderContext) -> [any MockProvider] {
        [
            FCMMock(
                credentials: context.credentials, tokens: context.tokens, log: context.log, faults: context.faults,
                registry: context.registry, clock: context.clock)
        ]
    }

    public static let impersonatedHosts: [ImpersonatedHost] = [.fcm]
    public static let settingNames = ["RINGCHECK_FCM_URL"]

    public static let id = MockProviderID.fcm
    public static let channels = [PushChannel.fcm]
    public static let listeners = [MockListener(name: "google")]

    /// Shaped like a real FCM registration token: `<22 chars>:APA91b<134 chars>`.
    public static func newDeviceToken(for channel: PushChannel) -> String {
        SecureRandom.alphanumeric(22, uppercaseOnly: false) + ":APA91b"
            + SecureRandom.alphanumeric(134, uppercaseOnly: false)
    }
    /// What the mock does not refuse as an invalid registration token.
    public static func isWellFormedDeviceToken(_ token: String, for channel: PushChannel) -> Bool {
        !token.isEmpty && token.utf8.count <= 4096 && token.utf8.allSatisfy(FCMMessageValidator.isTokenByte)
    }
    /// The message's target (`token`, or the `fid` firebase-admin 7.x sends).
    public static func deviceToken(of capture: Capture) -> String? { capture.fcmTarget?.value }
    public static func realHost(of capture: Capture) -> String { ImpersonatedHost.fcm.name }
    /// 404 `UNREGISTERED`, 400 `INVALID_ARGUMENT` (and 410 or 400 with APNs' `BadDeviceToken`, as the
    /// engine always counted them).
    public static func meansTokenGone(_ answer: FaultResponse) -> Bool {
        switch answer.status ?? 0 {
        case 410, 404: return true
        case 400: return answer.errorCode == FCMErrorCode.invalidArgument.rawValue || answer.reason == "BadDeviceToken"
        default: return false
        }
    }
    public static let displayName = "FCM"

    public func consoleLines(_ s: MockSettings) -> (endpoints: [String], credentials: [String]) {
        ([MockConsole.line("FCM HTTP v1", "\(s.fcmURL)/v1/projects/\(s.fcmProjectID)/messages:send")], [])
    }

    /// The FCM API's paths: `/v1/…`.
    public func claims(_ request: HTTPRequest) -> Bool { request.path.hasPrefix("/v1/") }

    public func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        [("RINGCHECK_FCM_URL", context.baseURL)]
    }
}
