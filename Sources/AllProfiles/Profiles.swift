import Callx
import Conformance
import DialStack
import OneSignal
import PushService

/// Every profile ringcheck ships, one line each: the registration list the CLI hands the engine
/// (`registry`). A new profile is one line here (and its folder under `Profiles/`, its suite under
/// `suites/<name>/`, and its CLI reference line). The engine names none of them: it is given `registry`.
public enum Profiles {
    /// The registered profiles, the default (`callx`) first.
    public static let all: [any Profile] = [
        CallxProfile(),
        DialStackProfile(),
        PushServiceProfile(),
        OneSignalProfile(),
    ]

    /// The profiles in force, as the engine takes them: `all`, unless a caller runs the CLI's code with a
    /// registry of its own (`Ringcheck.dispatch(_:profiles:)`; a test adds a profile outside the binary):
    ///
    /// ```swift
    /// let code = await Profiles.$registry.withValue(ProfileRegistry(Profiles.all + [ProbeProfile()])) {
    ///     await Ringcheck.dispatch(["list", "--profile", "probe"])
    /// }
    /// ```
    @TaskLocal public static var registry = ProfileRegistry(all)

    /// The profile a suite or command means when it names none.
    public static var defaultProfile: any Profile { registry.defaultProfile }

    /// The names of every registered profile.
    public static var names: [String] { registry.names }

    /// The profile called `name`, if registered.
    public static func named(_ name: String) -> (any Profile)? { registry.named(name) }

    /// "unknown profile 'calx' (did you mean 'callx'?; profiles: callx, dialstack)".
    public static func unknownMessage(_ name: String) -> String { registry.unknownMessage(name) }
}
