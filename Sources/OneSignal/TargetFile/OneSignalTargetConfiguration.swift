import Conformance

/// The onesignal profile's part of a target file: the backend's operations that make it send
/// (`profileOperations:`) and the instance started without its OneSignal settings (`unconfigured:`).
struct OneSignalTargetConfiguration: ProfileConfiguration {
    /// By operation name (`pushToUser`, `pushBroadcast`, `voipPush`).
    var operations: [String: ProfileOperationMapping] = [:]
    var unconfiguredBaseURL: String? = nil
    /// Signs in the operations whose mapping has `auth` (once, when first needed): set for a run's target.
    var operationHeaders: (@Sendable (_ operation: String) async throws -> [String: String])? = nil

    /// The unconfigured instance's base URL may name the run's ports.
    var runVariableTexts: [String] { [unconfiguredBaseURL].compactMap { $0 } }

    /// The unconfigured instance must answer before a run, as the configured one must.
    var otherBaseURLs: [(field: String, url: String)] {
        unconfiguredBaseURL.map { [("unconfigured.baseURL", $0)] } ?? []
    }

    func filling(_ variables: TargetRunVariables) -> Self {
        var out = self
        out.unconfiguredBaseURL = unconfiguredBaseURL.map(variables.fill)
        return out
    }

    func forTarget(signIn: TargetSignIn) -> Self {
        var out = self
        if operations.values.contains(where: { $0.auth != nil }) {
            out.operationHeaders = { operation in try await signIn.operationHeaders(operation) }
        }
        return out
    }
}

extension Capability {
    /// ringcheck can reach a second instance of the backend started without its push provider's settings
    /// (`Target.unconfiguredBaseURL`), to see that it sends nothing.
    public static let unconfigured = Capability(rawValue: "unconfigured")
}

extension Target {
    /// A profile's own operations, by operation name (the `onesignal` profile's `pushToUser`, `pushBroadcast`,
    /// `voipPush`); a profile uses its defaults for the names missing here.
    public var profileOperations: [String: ProfileOperationMapping] {
        get { oneSignal.operations }
        set { oneSignal.operations = newValue }
    }
    /// The headers of a profile operation whose mapping has `auth` (signed in once, when first needed); nil when
    /// no operation has one.
    public var profileOperationHeaders: (@Sendable (_ operation: String) async throws -> [String: String])? {
        get { oneSignal.operationHeaders }
        set { oneSignal.operationHeaders = newValue }
    }
    /// Where a second instance of the backend listens that was started without its push provider's settings (the
    /// `unconfigured` capability); nil when there is none.
    public var unconfiguredBaseURL: String? {
        get { oneSignal.unconfiguredBaseURL }
        set { oneSignal.unconfiguredBaseURL = newValue }
    }

    private var oneSignal: OneSignalTargetConfiguration {
        get { profileConfiguration[OneSignalTargetConfiguration.self] ?? OneSignalTargetConfiguration() }
        set { profileConfiguration[OneSignalTargetConfiguration.self] = newValue }
    }
}

extension TargetFile {
    /// `profileOperations:` the profile's own operations (`pushToUser: /admin/push`, or a mapping with method,
    /// path, body, auth and response), by name.
    public var profileOperations: [String: ProfileOperationMapping] {
        profileConfiguration[OneSignalTargetConfiguration.self]?.operations ?? [:]
    }
    /// `unconfigured: {baseURL}`: a second instance of the backend started without its push provider's settings
    /// (gives the target the `unconfigured` capability).
    public var unconfiguredBaseURL: String? {
        profileConfiguration[OneSignalTargetConfiguration.self]?.unconfiguredBaseURL
    }
}

extension TargetSignIn {
    /// The headers of profile operation `operation` (its mapping's `auth`; none without one). Its credentials
    /// belong to no scenario user, so the login body's `{userId}` is the operation's field name.
    func operationHeaders(_ operation: String) async throws -> [String: String] {
        guard let auth = file.profileOperations[operation]?.auth else { return [:] }
        return try await signIn(
            TargetAccount(userId: "profileOperations.\(operation)", auth: auth), key: "operation:\(operation)")
    }
}

extension OneSignalProfile {
    /// `profileOperations:` and `unconfigured:`.
    public var targetFileKeys: [String] { ["profileOperations", "unconfigured"] }

    public func decodeTargetFile(
        _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ) -> (any ProfileConfiguration)? {
        decoder.decodeProfileOperations(section["profileOperations"], section["unconfigured"], into: &file)
    }

    /// It sends a fresh External ID per scenario and signs its operations in with their own `auth`: it needs
    /// no users.
    public var targetNeedsUsers: Bool { false }

    public var capabilities: [Capability] { [.unconfigured] }
}
