import PushMocks

/// What a profile brings to `ringcheck load`: its workload (`LoadWorkload`), the users its embedded
/// reference is started with, how the console names its units, and the load options only it takes. A
/// profile with a load mode returns one from `Profile.load`; `ringcheck load` lists, starts and drives
/// every such profile through it and names none.
///
/// ```swift
/// struct PingLoad: ProfileLoad {
///     var words: LoadWords { LoadWords(unit: "ping", invitations: "pongs") }
///     var helpSection: String { "ping: pings every user; each ping gets one pong within 5 s." }
///     func workload(_ setup: LoadSetup) throws -> any LoadWorkload {
///         try PingWorkload(target: setup.target, mocks: setup.mocks)
///     }
/// }
///
/// extension PingProfile {
///     var load: (any ProfileLoad)? { PingLoad() }
/// }
/// ```
public protocol ProfileLoad: Sendable {
    /// How the console summary names one unit of work and the pushes that start something. `LoadWords()`
    /// (calls and invitations) by default.
    var words: LoadWords { get }
    /// The users the embedded reference is started with for load who start units (callers); none by default.
    var embeddedCallers: [String] { get }
    /// The users the embedded reference is started with for load whose devices the units reach; none by default.
    var embeddedCallees: [String] { get }
    /// Whether every user a target file declares (its `users:` and provisioned accounts) is one whose devices
    /// the units reach (no callers); false by default: `a` calls, `b` and `c` are called.
    var targetUsersAreCallees: Bool { get }
    /// The users a target file (`load --target`, or the reference's own child-process file) must declare for
    /// this load, `.users(names, why:)`; none by name by default (a profile that wakes whichever users the
    /// file declares, or makes fresh IDs of its own).
    var targetUserNeeds: TargetUserNeeds { get }
    /// `ringcheck load` options that only this profile takes (`short-ring`); naming one for another profile
    /// is a usage error. None by default.
    var options: [String] { get }
    /// The profile's paragraph of `load --help` (`ping: sends pings to every user …`): what its units are, what
    /// is judged, whose accounts it plays; shown in registry order with the others'. "" (the default): none.
    var helpSection: String { get }
    /// The workload that plays the profile's units against the started backend; a `LoadSetupError` when the
    /// target cannot take them.
    func workload(_ setup: LoadSetup) throws -> any LoadWorkload
}

extension ProfileLoad {
    public var words: LoadWords { LoadWords() }
    public var embeddedCallers: [String] { [] }
    public var embeddedCallees: [String] { [] }
    public var targetUsersAreCallees: Bool { false }
    public var targetUserNeeds: TargetUserNeeds { .users([], why: "") }
    public var options: [String] { [] }
    public var helpSection: String { "" }
}

/// The started backend a profile's load workload plays against: the target, the mocks that capture its
/// pushes, its users, and the values of the load options the profile takes (`ProfileLoad.options`).
public struct LoadSetup: Sendable {
    /// The backend under load.
    public var target: Target
    /// The mocks its pushes reach.
    public var mocks: MockStack
    /// The users who start units (a caller), signed in.
    public var callers: [TargetUser]
    /// The users whose devices the units reach, signed in.
    public var callees: [TargetUser]
    /// The profile's own options as given on the command line, by name (`short-ring` → `5`); an option
    /// not given is absent.
    public var options: [String: String]

    /// A setup for `target` and `mocks` with these users and option values.
    public init(
        target: Target, mocks: MockStack, callers: [TargetUser], callees: [TargetUser], options: [String: String] = [:]
    ) {
        self.target = target
        self.mocks = mocks
        self.callers = callers
        self.callees = callees
        self.options = options
    }
}

/// How the console summary of a load run names one unit of work (`call`, `webhook`) and the pushes that
/// start something (`invitations`, `wake-ups`).
public struct LoadWords: Sendable, Equatable {
    /// One unit of work, singular: `call`.
    public var unit: String
    /// The pushes that start something, plural: `invitations`.
    public var invitations: String

    /// Words for a profile's units; the defaults are Callx's.
    public init(unit: String = "call", invitations: String = "invitations") {
        self.unit = unit
        self.invitations = invitations
    }
}
