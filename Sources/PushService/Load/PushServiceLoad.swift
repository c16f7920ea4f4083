import Conformance
/// push-service's load mode (`ProfileLoad`): notifications and call pairs to users it makes per run
/// (`PushServiceLoadWorkload`).
///
/// ```swift
/// let workload = try PushServiceLoad().workload(LoadSetup(target: target, mocks: mocks, callers: [], callees: []))
/// ```
public struct PushServiceLoad: ProfileLoad {
    public var words: LoadWords { LoadWords(unit: "notification", invitations: "incoming-call pushes") }

    /// Creates push-service's load mode.
    public init() {}

    public func workload(_ setup: LoadSetup) throws -> any LoadWorkload {
        try PushServiceLoadWorkload(target: setup.target, mocks: setup.mocks)
    }
}

extension PushServiceProfile {
    /// Its load mode: `PushServiceLoad`.
    public var load: (any ProfileLoad)? { PushServiceLoad() }
}
