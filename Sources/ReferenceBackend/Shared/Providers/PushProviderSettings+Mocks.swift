import PushMocks

/// An embedded reference wired to ringcheck's mocks (every profile's kit starts one so):
///
/// ```swift
/// let providers = mocks.settings.providerSettings(bundleID: mocks.providers.credentials.bundleID)
/// ```
extension MockSettings {
    /// The push settings that send an embedded reference's pushes to these mocks, for `bundleID`'s app.
    public func providerSettings(bundleID: String) -> PushProviderSettings {
        PushProviderSettings(
            apnsURL: apnsURL, apnsSandboxURL: apnsSandboxURL, fcmURL: fcmURL, oauthTokenURL: oauthTokenURL,
            caFile: caFile, apnsKeyFile: apnsKeyFile, apnsKeyID: apnsKeyID, apnsTeamID: apnsTeamID,
            apnsBundleID: bundleID, fcmServiceAccountFile: fcmServiceAccountFile, fcmProjectID: fcmProjectID)
    }
}
