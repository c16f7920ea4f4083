import PushMocks
import ReferenceBackend

extension MockSettings {
    /// The push settings that send an embedded reference's pushes to these mocks, for `bundleID`'s app.
    func providerSettings(bundleID: String) -> PushProviderSettings {
        PushProviderSettings(
            apnsURL: apnsURL, apnsSandboxURL: apnsSandboxURL, fcmURL: fcmURL, oauthTokenURL: oauthTokenURL,
            caFile: caFile, apnsKeyFile: apnsKeyFile, apnsKeyID: apnsKeyID, apnsTeamID: apnsTeamID,
            apnsBundleID: bundleID, fcmServiceAccountFile: fcmServiceAccountFile, fcmProjectID: fcmProjectID)
    }
}
