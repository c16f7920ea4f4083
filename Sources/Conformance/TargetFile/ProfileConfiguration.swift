/// What a profile decoded from its own part of a target file (DialStack's `webhook:`, a push service's
/// `serviceApp:`): the engine carries it on `TargetFile` and `Target` without reading it, and asks it
/// only for what every run needs — the secrets reports must hide, the texts run variables may be filled
/// in, and the values that exist only once a run signs in.
///
/// A profile decodes it in `Profile.decodeTargetFile(_:into:decoder:)` and reads it back by its type:
///
/// ```swift
/// struct ProbeTargetConfiguration: ProfileConfiguration {
///     var apiKey: String
///     var secrets: [String] { [apiKey] }
/// }
///
/// extension Target {
///     var probeAPIKey: String? { profileConfiguration[ProbeTargetConfiguration.self]?.apiKey }
/// }
/// ```
public protocol ProfileConfiguration: Sendable {
    /// Values no report may show in full (a signing secret, an API key). None by default.
    var secrets: [String] { get }
    /// The texts of the configuration a run may fill `${RINGCHECK_*}` run variables into (a second
    /// instance's base URL). None by default.
    var runVariableTexts: [String] { get }
    /// The configuration with the run's variables filled into those texts. Itself by default.
    func filling(_ variables: TargetRunVariables) -> Self
    /// The configuration as a run's `Target` carries it: with what needs the target file's sign-in (the
    /// headers of an operation that has its own `auth`). Itself by default.
    func forTarget(signIn: TargetSignIn) -> Self
    /// How the target's API differs from the canonical requests, when this configuration says
    /// (Callx's `operations:`, `installation:`, `values:`, `numbers:`). Nil by default.
    var apiMapping: (any TargetAPIMapping)? { get }
    /// Base URLs of other instances of the backend the target file names, by field (the onesignal profile's
    /// `unconfigured.baseURL`): `run` and `validate` wait for each to answer, as for `baseURL`. None by default.
    var otherBaseURLs: [(field: String, url: String)] { get }
}

extension ProfileConfiguration {
    public var secrets: [String] { [] }
    public var runVariableTexts: [String] { [] }
    public func filling(_ variables: TargetRunVariables) -> Self { self }
    public func forTarget(signIn: TargetSignIn) -> Self { self }
    public var apiMapping: (any TargetAPIMapping)? { nil }
    public var otherBaseURLs: [(field: String, url: String)] { [] }
}

/// The profiles' configurations of one target, each under its own type: one opaque value for the
/// engine, which holds every registered profile's decoded section (a file's sections are decoded by
/// the profile that owns their keys, whichever profile the file runs).
public struct ProfileConfigurations: Sendable {
    private var byType: [ObjectIdentifier: any ProfileConfiguration] = [:]

    public init() {}

    /// The configuration of type `type`, if the target has one; setting nil removes it.
    public subscript<C: ProfileConfiguration>(_ type: C.Type) -> C? {
        get { byType[ObjectIdentifier(type)] as? C }
        set { byType[ObjectIdentifier(type)] = newValue }
    }

    /// Adds `configuration` under its own type (replacing one of the same type).
    mutating func insert(_ configuration: any ProfileConfiguration) {
        byType[ObjectIdentifier(Swift.type(of: configuration))] = configuration
    }

    /// The API mapping a configuration supplies (`ProfileConfiguration.apiMapping`), if one does.
    var apiMapping: (any TargetAPIMapping)? { byType.values.lazy.compactMap(\.apiMapping).first }

    /// Every configuration's secrets.
    public var secrets: [String] { byType.values.flatMap(\.secrets) }

    /// Every configuration's other instances' base URLs, by field, sorted by field.
    public var otherBaseURLs: [(field: String, url: String)] {
        byType.values.flatMap(\.otherBaseURLs).sorted { $0.field < $1.field }
    }

    /// Every configuration's texts run variables may be filled into.
    var runVariableTexts: [String] { byType.values.flatMap(\.runVariableTexts) }

    /// Each configuration with the run's variables filled in.
    func filling(_ variables: TargetRunVariables) -> ProfileConfigurations {
        var out = self
        out.byType = byType.mapValues { $0.filling(variables) }
        return out
    }

    /// Each configuration as a run's `Target` carries it.
    func forTarget(signIn: TargetSignIn) -> ProfileConfigurations {
        var out = self
        out.byType = byType.mapValues { $0.forTarget(signIn: signIn) }
        return out
    }
}

/// The part of a target file's top level a profile owns: its keys that the file gives, and the file's
/// root (the place of an error about a key the profile needs and the file lacks).
public struct TargetFileSection {
    /// The profile's top-level keys present in the file, by key.
    public var entries: [String: YAMLMapEntry]
    /// The whole file.
    public var root: YAMLNode
    /// The values of the profile's `valuedCapabilities` that `capabilities:` declares as `{name: value}`, by
    /// name, with their field for errors (`capabilities[3].eventRetention`).
    public var capabilityValues: [String: (path: String, value: YAMLNode)] = [:]
    /// The profile's `targetFileCapabilities` that `capabilities:` lists (Callx's `answerByMediaRequest`).
    public var declaredCapabilityNames: Set<String> = []
    /// The entries of `operations:` that name the profile's `targetFileOperations`, by name.
    public var operations: [String: YAMLMapEntry] = [:]
    /// Where an error about an operation the file does not give points: the `operations:` key, else the
    /// file's root.
    public var operationsMark: YAMLMark
    /// The entries of `values:` that name the profile's `targetFileValueNames`, by name.
    public var values: [String: YAMLMapEntry] = [:]

    /// The entry of top-level key `key`, if the file gives it.
    public subscript(_ key: String) -> YAMLMapEntry? { entries[key] }
}
