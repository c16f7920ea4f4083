/// Every profile ringcheck knows, one line each. A new profile is one line here (and its folder under
/// `Profiles/`, its suite under `suites/<name>/`, and its CLI reference line).
public enum Profiles {
    /// The registered profiles, the default (`callx`) first.
    public static let all: [any Profile] = [
        CallxProfile(),
        DialStackProfile(),
        PushServiceProfile(),
        OneSignalProfile(),
    ]

    /// The profile a suite or command means when it names none.
    public static var defaultProfile: any Profile { all[0] }

    /// The names of every registered profile.
    public static var names: [String] { all.map(\.name) }

    /// The profile called `name`, if registered.
    public static func named(_ name: String) -> (any Profile)? { all.first { $0.name == name } }

    /// "unknown profile 'calx' (did you mean 'callx'?; profiles: callx, dialstack)".
    public static func unknownMessage(_ name: String) -> String {
        "unknown profile '\(name)'\(Diagnostics.suggestion(name, names)) (profiles: \(names.joined(separator: ", ")))"
    }
}
