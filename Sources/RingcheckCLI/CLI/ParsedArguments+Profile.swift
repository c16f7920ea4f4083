import AllProfiles
import Conformance

extension ParsedArguments {
    /// `--profile NAME` when given: a registered profile's name (or `all` when `allowAll`); a usage
    /// error naming the profiles otherwise.
    func profileName(allowAll: Bool = false) throws -> String? {
        guard let name = value("profile") else { return nil }
        if allowAll && name == "all" { return name }
        guard Profiles.named(name) == nil else { return name }
        throw UsageError(
            message: "--profile: " + Profiles.unknownMessage(name) + (allowAll ? "; or 'all' for every profile" : ""),
            command: command)
    }

    /// The suite folder: `--suite` when given, else the default suite of `profile` (callx when nil).
    func suitePath(profile: String?) -> String {
        if let given = value("suite") { return RunCommand.suiteDirectory(given) }
        let directory = (profile.flatMap(Profiles.named) ?? Profiles.defaultProfile).suiteDirectory
        return Self.resolvedSuite(directory)
    }

    /// `suites/NAME` found as `RunCommand.suiteDirectory` finds a suite name; any other folder as it is.
    static func resolvedSuite(_ directory: String) -> String {
        let prefix = "suites/"
        guard directory.hasPrefix(prefix), !directory.dropFirst(prefix.count).contains("/") else { return directory }
        return RunCommand.suiteDirectory(String(directory.dropFirst(prefix.count)))
    }
}

extension Suite {
    /// A usage error when `profile` (from `--profile` or a target file, named by `source`) is not the
    /// suite's own.
    func checkProfile(_ profile: String?, source: String, command: String) throws {
        guard let profile, profile != self.profile.name else { return }
        throw UsageError(
            message:
                "\(source) says profile '\(profile)', but the suite \(directory) is for profile '\(self.profile.name)' (its suite.yaml); give a suite of profile '\(profile)' or leave --suite out",
            command: command)
    }
}
