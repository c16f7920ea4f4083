import Conformance

/// The suite a reading command (`list`, `explain`) works on: `--profile` and `--suite`, read and
/// checked the same way everywhere.
struct SuiteChoice {
    /// `--profile` when given.
    var profileName: String?
    var suitePath: String

    /// The options, for the commands' configurations.
    static let options: [OptionSpec] = [
        .value(
            "profile", "NAME", help: "The profile whose suite to read: \(Profiles.names.joined(separator: ", ")).",
            default: "callx"),
        .value(
            "suite", "NAME|DIR", help: "The suite: a folder under suites/, or a path.",
            default: "the profile's (suites/<profile>)"),
    ]

    init(arguments: ParsedArguments) throws {
        profileName = try arguments.profileName()
        suitePath = arguments.suitePath(profile: profileName)
    }

    /// Loads the suite and checks it belongs to `--profile`; every problem is a configuration error.
    func load(command: String) throws -> Suite {
        let suite: Suite
        do { suite = try Suite.load(directory: suitePath) } catch {
            throw ConfigurationError(message: "cannot load the suite:\n\(error)")
        }
        try suite.checkProfile(profileName, source: "--profile", command: command)
        return suite
    }
}
