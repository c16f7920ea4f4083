import Signing

/// What the mocks trust: the APNs signing key's IDs and public key, the app's bundle ID (topics),
/// and the Firebase project with its service account's key.
public struct MockCredentials: Sendable {
    /// The bundle ID mocks expect when none is given.
    public static let defaultBundleID = "com.ringcheck.testapp"

    /// The 10-character key ID a provider token's `kid` must carry.
    public var apnsKeyID: String
    /// The 10-character team ID a provider token's `iss` must carry.
    public var apnsTeamID: String
    /// Verifies provider-token signatures (P-256).
    public var apnsPublicKey: PublicKey
    /// The app's bundle ID: the topic of alert/background pushes.
    public var bundleID: String
    /// The Firebase project ID in `/v1/projects/{project}/messages:send`.
    public var fcmProjectID: String
    /// The service account's `client_email`: the assertion's `iss`.
    public var serviceAccountEmail: String
    /// The service account's `private_key_id`: the assertion's `kid`.
    public var serviceAccountKeyID: String
    /// Verifies assertion signatures (RSA).
    public var serviceAccountPublicKey: PublicKey

    /// The topic of VoIP pushes: `<bundle>.voip`.
    public var voipTopic: String { bundleID + ".voip" }

    /// Creates a value from its parts.
    public init(
        apnsKeyID: String, apnsTeamID: String, apnsPublicKey: PublicKey, bundleID: String = defaultBundleID,
        fcmProjectID: String, serviceAccountEmail: String, serviceAccountKeyID: String,
        serviceAccountPublicKey: PublicKey
    ) {
        self.apnsKeyID = apnsKeyID
        self.apnsTeamID = apnsTeamID
        self.apnsPublicKey = apnsPublicKey
        self.bundleID = bundleID
        self.fcmProjectID = fcmProjectID
        self.serviceAccountEmail = serviceAccountEmail
        self.serviceAccountKeyID = serviceAccountKeyID
        self.serviceAccountPublicKey = serviceAccountPublicKey
    }

    /// The credentials matching a generated APNs key and service account.
    public init(
        apnsKey: APNsSigningKey, serviceAccount: ServiceAccount, bundleID: String = defaultBundleID
    ) throws(SigningError) {
        self.init(
            apnsKeyID: apnsKey.keyID, apnsTeamID: apnsKey.teamID, apnsPublicKey: try apnsKey.privateKey.publicKey(),
            bundleID: bundleID, fcmProjectID: serviceAccount.projectID, serviceAccountEmail: serviceAccount.clientEmail,
            serviceAccountKeyID: serviceAccount.privateKeyID,
            serviceAccountPublicKey: try serviceAccount.privateKey.publicKey())
    }
}

/// Freshly generated secrets for a mock run together with the credentials the mocks trust:
/// what `ringcheck mocks` writes out as `RINGCHECK_APNS_KEY_FILE`, `RINGCHECK_FCM_SERVICE_ACCOUNT`, ….
public struct MockKeyMaterial: Sendable {
    public var apnsKey: APNsSigningKey
    public var serviceAccount: ServiceAccount
    public var credentials: MockCredentials

    /// Generates a P-256 APNs key and an RSA service account whose `token_uri` is `tokenURI` (with
    /// `serviceAccountKey` as its key when given).
    public static func generate(
        projectID: String = "ringcheck-test", tokenURI: String, bundleID: String = MockCredentials.defaultBundleID,
        serviceAccountKey: PrivateKey? = nil
    ) throws(SigningError) -> MockKeyMaterial {
        let apnsKey = try APNsSigningKey.generate()
        let account = try ServiceAccount.generate(projectID: projectID, tokenURI: tokenURI, key: serviceAccountKey)
        return MockKeyMaterial(
            apnsKey: apnsKey, serviceAccount: account,
            credentials: try MockCredentials(apnsKey: apnsKey, serviceAccount: account, bundleID: bundleID))
    }
}
