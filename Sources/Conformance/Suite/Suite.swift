import Foundation

/// A loaded suite: its requirement catalogue and every scenario in its folder.
public struct Suite: Sendable, Equatable {
    public var directory: String
    public var catalogue: RequirementCatalogue
    /// Sorted by file, then by order in the file.
    public var scenarios: [Scenario]

    public init(directory: String, catalogue: RequirementCatalogue, scenarios: [Scenario]) {
        self.directory = directory
        self.catalogue = catalogue
        self.scenarios = scenarios
    }

    /// The scenario with `id`.
    public func scenario(_ id: String) -> Scenario? { scenarios.first { $0.id == id } }

    /// The scenarios that evidence requirement `id`.
    public func scenarios(evidencing id: String) -> [Scenario] { scenarios.filter { $0.requirements.contains(id) } }

    /// Files of the folder that are not scenarios.
    public static let reservedFiles = ["suite.yaml", "requirements.yaml"]

    /// Loads the catalogue and every `*.yaml` scenario file under `directory` (sub-folders included; a
    /// `builtin:NAME` directory is the embedded suite NAME, see `EmbeddedSuites`),
    /// and reports every problem of every file together, each with file, line and field. suite.yaml's
    /// `profile:` names one of `profiles`, whose steps the scenarios may use.
    public static func load(directory given: String, profiles: ProfileRegistry) throws(SuiteLoadError) -> Suite {
        // `suites/callx/` and `suites/callx` name files the same way in errors.
        var directory = given
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        var errors: [SuiteError] = []
        var catalogue: RequirementCatalogue?
        do { catalogue = try RequirementCatalogue.load(suiteDirectory: directory, profiles: profiles) } catch {
            errors += error.errors
        }
        // The scenarios' steps are the profile's: with a profile that is not registered they cannot be read.
        let profile =
            catalogue.flatMap { profiles.named($0.suite.profile) }
            ?? RequirementCatalogue.profile(suiteDirectory: directory, profiles: profiles)

        var scenarios: [Scenario] = []
        for file in scenarioFiles(in: directory, profiles: profiles) where profile != nil {
            let path = directory + "/" + file
            let root: YAMLNode
            do { root = try SuiteFiles.parse(path, profiles: profiles) } catch {
                errors.append(SuiteError(error))
                continue
            }
            var decoder = ScenarioDecoder(
                file: path, catalogue: catalogue, profile: profile ?? profiles.defaultProfile, profiles: profiles)
            scenarios += decoder.decodeFile(root)
            // In reading order, whatever order the checks ran in.
            errors += decoder.d.errors.enumerated().sorted {
                ($0.element.mark, $0.offset) < ($1.element.mark, $1.offset)
            }
            .map(\.element)
        }
        var firstSeen: [String: Scenario] = [:]
        for scenario in scenarios {
            if let first = firstSeen[scenario.id] {
                errors.append(
                    SuiteError(
                        file: scenario.file, mark: scenario.mark, field: "id",
                        message: "duplicate scenario ID '\(scenario.id)' (also in \(first.file):\(first.mark))"))
            } else {
                firstSeen[scenario.id] = scenario
            }
        }
        guard errors.isEmpty, let catalogue else { throw SuiteLoadError(errors: errors) }
        return Suite(directory: directory, catalogue: catalogue, scenarios: scenarios)
    }

    /// Scenario files relative to `directory`, sorted.
    static func scenarioFiles(in directory: String, profiles: ProfileRegistry) -> [String] {
        var files: [String] = []
        for name in SuiteFiles.files(in: directory, profiles: profiles) {
            guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
            if reservedFiles.contains(name) { continue }
            files.append(name)
        }
        return files.sorted()
    }
}
