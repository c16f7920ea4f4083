import Conformance

/// onesignal's load mode (`ProfileLoad`): the kit runs its operations to fresh External IDs on the mock
/// OneSignal (`OneSignalLoadWorkload`).
///
/// ```swift
/// let workload = try OneSignalLoad().workload(LoadSetup(target: target, mocks: mocks, callers: [], callees: []))
/// ```
public struct OneSignalLoad: ProfileLoad {
    public var words: LoadWords { LoadWords(unit: "operation", invitations: "delivered operations") }
    /// Its paragraph of `load --help`.
    public var helpSection: String {
        """
        onesignal: the kit runs its operations (a push to a user, a VoIP push, a broadcast, a push to a user
        with no device, one through the unconfigured instance) to fresh External IDs on the mock OneSignal: one
        request per operation to the right app with its key, targeting, content and options as given,
        delivered as OneSignal answered. It makes fresh users of its own, with --target too.
        """
    }

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
