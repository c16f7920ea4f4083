import Conformance
/// Callx's load mode (`ProfileLoad`): calls from callers to callees' 2-3 virtual devices
/// (`CallxLoadWorkload`), with `--short-ring` for the calls that should expire.
///
/// ```swift
/// let workload = try CallxLoad().workload(
///     LoadSetup(target: target, mocks: mocks, callers: [a], callees: [b], options: ["short-ring": "5"]))
/// ```
public struct CallxLoad: ProfileLoad {
    /// The embedded reference's callers (`load-a0`, `load-a1`) and callees (`load-b0`…`load-b2`).
    public var embeddedCallers: [String] { ["load-a0", "load-a1"] }
    public var embeddedCallees: [String] { ["load-b0", "load-b1", "load-b2"] }
    /// A target file's user a calls user b (and c, when declared).
    public var targetUserNeeds: TargetUserNeeds {
        .users(["a", "b"], why: "load --profile callx: user a calls user b (and c, when declared)")
    }
    /// `--short-ring S`: how long the calls that should expire ring.
    public var options: [String] { ["short-ring"] }

    /// Creates Callx's load mode.
    public init() {}

    public func workload(_ setup: LoadSetup) throws -> any LoadWorkload {
        let shortRing = setup.options["short-ring"].flatMap { Int($0) } ?? CallxLoadSettings().shortRingSeconds
        return try CallxLoadWorkload(
            target: setup.target, mocks: setup.mocks, settings: CallxLoadSettings(shortRingSeconds: shortRing),
            callers: setup.callers, callees: setup.callees)
    }
}

extension CallxProfile {
    /// Its load mode: `CallxLoad`.
    public var load: (any ProfileLoad)? { CallxLoad() }
}
