import HTTP

extension MockProviderID {
    public static let onesignal = MockProviderID("onesignal")
}

extension ImpersonatedHost {
    /// OneSignal's API host (`POST /notifications`).
    public static let oneSignalAPI = ImpersonatedHost(name: "api.onesignal.com", ports: [443])
    /// The older host of the API (`POST /api/v1/notifications`), still the default of many clients.
    public static let oneSignal = ImpersonatedHost(name: "onesignal.com", ports: [443])
}

/// OneSignal as a registered provider: one TLS listener (HTTP/1.1 and h2) serving both routes, the
/// two apps' IDs and keys in the settings, the audience on the control API.
extension OneSignalMock: MockProvider {
    public static func make(_ context: MockProviderContext) -> [any MockProvider] {
        var apps = (standard: OneSignalApp.generate(.standard), voip: OneSignalApp.generate(.voip))
        var failure: (any Error)?
        if let directory = context.persistentDirectory {
            do {
                apps = try OneSignalApp.persistent(in: directory)
            } catch {
                failure = error
            }
        }
        return [
            OneSignalMock(
                standardApp: apps.standard, voipApp: apps.voip, audience: OneSignalAudience(), log: context.log,
                faults: context.faults, clock: context.clock, keyFileError: failure)
        ]
    }

    public static let impersonatedHosts: [ImpersonatedHost] = [.oneSignalAPI, .oneSignal]

    public static let settingNames = [
        "RINGCHECK_ONESIGNAL_URL", "RINGCHECK_ONESIGNAL_APP_ID", "RINGCHECK_ONESIGNAL_API_KEY",
        "RINGCHECK_ONESIGNAL_VOIP_APP_ID", "RINGCHECK_ONESIGNAL_VOIP_API_KEY",
    ]

    public static let id = MockProviderID.onesignal
    public static let listeners = [MockListener(name: "onesignal")]
    public static let displayName = "OneSignal"

    /// Both routes and the audience's; the apps' IDs (their keys stay in the settings files).
    public func consoleLines(_ s: MockSettings) -> (endpoints: [String], credentials: [String]) {
        let value = { (name: String) in s.extra.first { $0.name == name }?.value ?? "-" }
        return (
            [
                MockConsole.line(
                    "OneSignal REST",
                    "\(value("RINGCHECK_ONESIGNAL_URL"))/notifications  (also /api/v1/notifications; audience: "
                        + "\(s.controlURL)/v1/onesignal/subscriptions)")
            ],
            [
                MockConsole.line(
                    "OneSignal apps",
                    "standard \(value("RINGCHECK_ONESIGNAL_APP_ID")), VoIP \(value("RINGCHECK_ONESIGNAL_VOIP_APP_ID"))"
                        + "  (REST API keys in the settings files)")
            ]
        )
    }

    /// The base URL (both `$URL/notifications` and `$URL/api/v1/notifications` work) and each app's ID and key
    /// (kept in the state directory's `onesignal-apps.json` when keys persist).
    public func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        if let keyFileError { throw keyFileError }
        return [
            ("RINGCHECK_ONESIGNAL_URL", context.baseURL), ("RINGCHECK_ONESIGNAL_APP_ID", standardApp.appID),
            ("RINGCHECK_ONESIGNAL_API_KEY", standardApp.apiKey), ("RINGCHECK_ONESIGNAL_VOIP_APP_ID", voipApp.appID),
            ("RINGCHECK_ONESIGNAL_VOIP_API_KEY", voipApp.apiKey),
        ]
    }
}

extension MockProviders {
    /// The OneSignal mock, when it is registered.
    public var oneSignal: OneSignalMock? { all.lazy.compactMap { $0 as? OneSignalMock }.first }
}
