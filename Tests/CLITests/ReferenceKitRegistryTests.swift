import AllProfiles
import Conformance
import PushMocks
import Testing

@testable import RingcheckCLI

/// A reference kit comes from its profile value (`ReferenceKitProvider`), not from a list in the CLI: a
/// profile that is none of the four brings its kit into `serve-reference`'s help, names and defect errors
/// by being in the profile list.
@Suite struct ReferenceKitRegistryTests {
    @Test func aKitBroughtByAnotherProfileIsListedServedAndParsed() throws {
        let kits = ReferenceKits(profiles: Profiles.all + [KitProbeProfile(), NoKitProfile()])
        #expect(kits.all.map(\.name) == ReferenceKits.registered.all.map(\.name) + ["kit-probe"])
        #expect(kits.namesSentence.hasSuffix(", onesignal or kit-probe"), "\(kits.namesSentence)")
        let probe = try #require(kits.named("kit-probe"))
        #expect(kits.named("no-kit") == nil)
        #expect(probe.title == "the kit probe reference")
        #expect(
            kits.helpSections.hasSuffix(
                """
                PROFILE kit-probe (--profile kit-probe): a reference that answers one route.

                Options of its own: none
                (another profile's option is refused).

                KIT-PROBE DEFECTS (--profile kit-probe --defect NAME):
                  skip-check                  the check is skipped
                  slow-answer                 every answer is late
                """), "\(kits.helpSections)")

        let parse = { (args: [String]) in try ArgumentParser.parse(args, for: ServeReferenceCommand.configuration) }
        let served = try probe.served(parse(["--defect", "slow-answer", "--port", "0"]), command: "serve-reference")
        #expect((served as? KitProbeServed)?.defects == ["slow-answer"])
        #expect(served.port == 0)
        #expect {
            _ = try probe.served(parse(["--defect", "skip-chek"]), command: "serve-reference")
        } throws: { error in
            "\(error)".contains("unknown defect 'skip-chek' for --profile kit-probe (did you mean 'skip-check'?)")
        }
        #expect {
            _ = try probe.served(parse(["--db", "x.db"]), command: "serve-reference")
        } throws: { error in "\(error)" == "--db does not apply to --profile kit-probe" }
    }
}

/// A fifth profile for the registry only: no steps; its reference kit is `KitProbeReferenceKit`.
private struct KitProbeProfile: Profile, ReferenceKitProvider {
    var name: String { "kit-probe" }
    var summary: String { "test profile with a reference kit" }
    var stepKeywords: [String] { [] }
    var requestStepKeywords: [String] { [] }
    var defaultPushType: String? { nil }
    var referenceKit: any ReferenceKit { KitProbeReferenceKit() }
    func decodeStep(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> (any ProfileStep)?
    { nil }
    func pushView(_ capture: Capture) -> PushView? { nil }
}

/// A profile without a reference (run only with `--target`).
private struct NoKitProfile: Profile {
    var name: String { "no-kit" }
    var summary: String { "test profile without a reference kit" }
    var stepKeywords: [String] { [] }
    var requestStepKeywords: [String] { [] }
    var defaultPushType: String? { nil }
    func decodeStep(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> (any ProfileStep)?
    { nil }
    func pushView(_ capture: Capture) -> PushView? { nil }
}

private enum KitProbeDefect: String, ReferenceKitDefect {
    case skipCheck = "skip-check"
    case slowAnswer = "slow-answer"

    var summary: String {
        switch self {
        case .skipCheck: return "the check is skipped"
        case .slowAnswer: return "every answer is late"
        }
    }
}

private struct KitProbeReferenceKit: ReferenceKit {
    var profile: any Profile { KitProbeProfile() }
    let title = "the kit probe reference"
    let helpIntro = "PROFILE kit-probe (--profile kit-probe): a reference that answers one route."
    let summary = "the kit probe reference"

    func serving(_ arguments: any ReferenceArguments, defects: Set<KitProbeDefect>) throws -> any ServedReference {
        KitProbeServed(
            host: arguments.value("host") ?? "127.0.0.1", port: try arguments.int("port") ?? 8080,
            defects: defects.sortedNames)
    }

    func startEmbedded(_ start: EmbeddedStart, defects: Set<KitProbeDefect>, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        throw ConfigurationError(message: "the kit probe has no embedded reference in this test")
    }
}

/// What `serving` set up: the settings it read, for the test to compare.
private struct KitProbeServed: ServedReference {
    var host: String
    var port: Int
    var defects: [String]

    func start() async throws -> RunningReference {
        throw ConfigurationError(message: "the kit probe does not listen in this test")
    }
}
