import Conformance
import PushMocks

/// The probe profile: a minimal fifth profile that shows what adding one takes (docs/ARCHITECTURE.md, "What a
/// new profile needed: the probe"). It is this module and one line in a test's registry:
///
/// ```swift
/// let profiles = ProfileRegistry(Profiles.all + [ProbeProfile()])
/// ```
///
/// One step (`ping`, `PingStep`), one rule (`PROBE-ECHO-1`: the answer echoes the number sent), one target-file
/// section (`probe: {key: SECRET}`, whose key reports redact), its own suite (`Suite/`, embedded by the
/// EmbedSuites plugin) and a reference backend (`ProbeReference`) with one defect (`ProbeDefect.wrongEcho`).
public struct ProbeProfile: Profile {
    /// The name suites, target files and `--profile` give it.
    public static let profileName = "probe"

    public init() {}

    public var name: String { Self.profileName }
    public var summary: String { "Probe backend: echoes a number (issue 26's plug-in proof)" }
    public var embeddedSuite: EmbeddedSuite { EmbeddedSuiteFiles.suite }
    public var stepTypes: [any DecodableStep.Type] { [PingStep.self] }
    public var defaultPushType: String? { nil }
    public var targetNeedsUsers: Bool { false }
    public var targetFileKeys: [String] { ["probe"] }
    public var targetFileTemplate: String { "" }

    public func pushView(_ capture: Capture) -> PushView? { nil }

    public func decodeTargetFile(
        _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ) -> (any ProfileConfiguration)? {
        guard let e = section["probe"] else { return nil }
        guard let f = decoder.d.mapping(e.value, "probe", known: ["key"], required: ["key"]),
            let key = f["key"].flatMap({ decoder.d.nonEmptyString($0.value, "probe.key") })
        else { return nil }
        return ProbeTargetConfiguration(key: key)
    }
}

/// The probe's part of a target file, `probe: {key: SECRET}`: the key the probe reference wants in
/// `x-probe-key`, a secret no report shows.
public struct ProbeTargetConfiguration: ProfileConfiguration {
    public var key: String
    public var secrets: [String] { [key] }
}

/// The probe's one requirement (its suite's `requirements.yaml`).
enum ProbeRequirement {
    /// PROBE-ECHO-1 (MUST): the answer to a ping echoes the number sent.
    static let echo: RequirementID = "PROBE-ECHO-1"
}
