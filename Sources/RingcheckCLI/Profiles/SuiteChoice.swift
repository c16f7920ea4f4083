import AllProfiles
import Conformance

/// The suite a reading command (`list`, `explain`) works on: `--profile` and `--suite`, read and
/// checked the same way everywhere.
struct SuiteChoice {
    /// `--profile` when given.
    var profileName: String?
    var suitePath: String

    /// The options, for the commands' configurations (computed: they name the profiles of `Profiles.registry`,
    /// which a caller of `Ringcheck.dispatch(_:profiles:)` may inject).
    static var options: [OptionSpec] {
        [
            .value(
                "profile", "NAME", help: "The profile whose suite to read: \(Profiles.names.joined(separator: ", ")).",
                default: Profiles.defaultProfile.name),
            .value(
                "suite", "NAME|DIR", help: SuiteLocator.optionHelp, default: "the profile's (built in)"),
        ]
    }

    init(arguments: ParsedArguments) throws {
        profileName = try arguments.profileName()
        suitePath = arguments.suitePath(profile: profileName)
    }

    /// Loads the suite and checks it belongs to `--profile`; every problem is a configuration error.
    func load(command: String) throws -> Suite {
        let suite = try Self.loadSuite(suitePath)
        try suite.checkProfile(profileName, source: "--profile", command: command)
        return suite
    }

    /// Loads the suite in folder `path` (a `builtin:` one or one on disk); a missing folder or any
    /// problem in its files is a configuration error.
    static func loadSuite(_ path: String) throws -> Suite {
        if let missing = SuiteLocator.missing(path) {
            throw ConfigurationError(message: "cannot load the suite: " + missing)
        }
        do { return try Suite.load(directory: path) } catch {
            throw ConfigurationError(message: "cannot load the suite:\n\(error)")
        }
    }
}
