import AllProfiles
import Conformance
import Foundation
import Testing

@testable import RingcheckCLI

/// The re-run command `ringcheck run` prints for a scenario works from any folder: the files the
/// user named relatively (`--target`, `--suite`) are named by absolute path, a built-in suite by name.
@Suite struct RerunCommandTests {
    /// `path` (absolute) as a path relative to the working folder.
    static func relative(_ path: String) -> String {
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: depth) + path.dropFirst()
    }

    static func command(_ arguments: [String]) throws -> RunCommand {
        try RunCommand(arguments: try ArgumentParser.parse(arguments, for: RunCommand.configuration))
    }

    @Test func aRelativeTargetAndSuiteAreNamedAbsolutely() throws {
        let target = TargetCommandTests.repositoryRoot + "/examples/targets/reference.yaml"
        let suite = TargetCommandTests.repositoryRoot + "/suites/callx"
        let run = try Self.command(["--target", Self.relative(target), "--suite", Self.relative(suite), "--strict"])
        #expect(
            run.rerunCommand("payload.apns-invitation")
                == "ringcheck run payload.apns-invitation --suite \(suite) --target \(target) --strict")
    }

    @Test func theBuiltInSuiteIsNamedByNameOrNotAtAll() throws {
        #expect(
            try Self.command([]).rerunCommand("basic.answer-and-hang-up") == "ringcheck run basic.answer-and-hang-up")
        let named = try Self.command(["--suite", "dialstack", "--profile", "dialstack"])
        #expect(
            named.rerunCommand("payload.x") == "ringcheck run payload.x --profile dialstack --suite dialstack")
    }

    @Test func explainsReRunNamesTheProfileAndASuiteOnDisk() throws {
        let builtIn = try Suite.load(directory: "builtin:dialstack")
        #expect(SuiteLocator.rerunCommand("x.y", suite: builtIn) == "ringcheck run x.y --profile dialstack")
        let disk = TargetCommandTests.repositoryRoot + "/suites/dialstack"
        let onDisk = try Suite.load(directory: Self.relative(disk))
        #expect(
            SuiteLocator.rerunCommand("x.y", suite: onDisk) == "ringcheck run x.y --profile dialstack --suite \(disk)")
    }

    @Test func aPathWithASpaceIsQuotedForTheShell() throws {
        let run = try Self.command(["--suite", "/tmp/my suites/callx"])
        #expect(run.rerunCommand("a.b") == "ringcheck run a.b --suite '/tmp/my suites/callx'")
    }
}
