import Conformance

/// push-service's load mode (`ProfileLoad`): notifications and call pairs to users it makes per run
/// (`PushServiceLoadWorkload`).
///
/// ```swift
/// let workload = try PushServiceLoad().workload(LoadSetup(target: target, mocks: mocks, callers: [], callees: []))
/// ```
public struct PushServiceLoad: ProfileLoad {
    public var words: LoadWords { LoadWords(unit: "notification", invitations: "incoming-call pushes") }
    /// Its paragraph of `load --help`.
    public var helpSection: String {
        """
        push-service: notifications and call pairs (incoming, then ended) to users with 1-5 devices, some
        tokens faulted: every device gets what the rules say once, no incoming-call push after the call's
        timeout, every ended reaches the devices its incoming reached, and the settled counts agree with the
        mocks. It makes fresh users of its own, with --target too.
        """
    }

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
