import Conformance
/// onesignal's load mode (`ProfileLoad`): the kit runs its operations to fresh External IDs on the mock
/// OneSignal (`OneSignalLoadWorkload`).
///
/// ```swift
/// let workload = try OneSignalLoad().workload(LoadSetup(target: target, mocks: mocks, callers: [], callees: []))
/// ```
public struct OneSignalLoad: ProfileLoad {
    public var words: LoadWords { LoadWords(unit: "operation", invitations: "delivered operations") }

    /// Creates onesignal's load mode.
    public init() {}

    public func workload(_ setup: LoadSetup) throws -> any LoadWorkload {
        try OneSignalLoadWorkload(target: setup.target, mocks: setup.mocks)
    }
}

extension OneSignalProfile {
    /// Its load mode: `OneSignalLoad`.
    public var load: (any ProfileLoad)? { OneSignalLoad() }
}
