import Conformance

/// DialStack's load mode (`ProfileLoad`): signed webhooks that wake the devices of every user
/// (`DialStackLoadWorkload`); the embedded reference's users are `l0`…`l5`.
///
/// ```swift
/// let workload = try DialStackLoad().workload(LoadSetup(target: target, mocks: mocks, callers: [], callees: users))
/// ```
public struct DialStackLoad: ProfileLoad {
    public var words: LoadWords { LoadWords(unit: "webhook", invitations: "wake-ups") }
    /// The embedded reference's load users, with 1, 2 and 3 virtual devices in turn.
    public var embeddedCallees: [String] { (0..<6).map { "l\($0)" } }
    /// A webhook wakes any user's devices: a target file's `a` is woken too.
    public var targetUsersAreCallees: Bool { true }
    /// Its paragraph of `load --help`.
    public var helpSection: String {
        """
        dialstack: signed DialStack webhooks (wake-ups for users with 1-3 devices, redeliveries, other event
        types, bad signatures): each wake-up pushes each device of its user once within 30 s and no other
        user's; nothing for the others. With --target it wakes the devices of every user the file declares.
        """
    }

    /// Creates DialStack's load mode.
    public init() {}

    public func workload(_ setup: LoadSetup) throws -> any LoadWorkload {
        try DialStackLoadWorkload(target: setup.target, mocks: setup.mocks, users: setup.callees)
    }
}

extension DialStackProfile {
    /// Its load mode: `DialStackLoad`.
    public var load: (any ProfileLoad)? { DialStackLoad() }
}
