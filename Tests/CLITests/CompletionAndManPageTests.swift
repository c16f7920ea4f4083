import Foundation
import TestSupport
import Testing

@testable import RingcheckCLI

/// The shell completions and the man page are generated from the commands' own declarations: each
/// names every command and every option the parser accepts, and the scripts are valid in their shell.
@Suite struct CompletionAndManPageTests {
    /// Every command name and every `--option` of every command.
    static var declared: [(command: String, options: [String])] {
        Ringcheck.commands.map { command in
            (command.configuration.name, command.configuration.options.map { "--" + $0.name })
        }
    }

    @Test(arguments: ShellCompletion.allCases)
    func everyCommandAndOptionIsCompleted(shell: ShellCompletion) async throws {
        let r = try await RingcheckBinary.run(["completion", shell.rawValue])
        #expect(r.status == 0, "\(r.stderr)")
        for (command, options) in Self.declared {
            #expect(r.stdout.contains(command), "\(shell): no command \(command)")
            for option in options {
                // fish names a long option without its dashes (`-l name`).
                let spelled = shell == .fish ? "-l " + option.dropFirst(2) : option
                #expect(r.stdout.contains(spelled), "\(shell): \(command) has no \(option)")
            }
        }
    }

    @Test func theManPageNamesEveryCommandOptionAndExitCode() async throws {
        let r = try await RingcheckBinary.run(["help", "--man"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix(".TH RINGCHECK 1"))
        // roff writes a minus as `\-`.
        let page = r.stdout.replacingOccurrences(of: "\\-", with: "-")
        for (command, options) in Self.declared {
            #expect(page.contains(".SS \"ringcheck \(command)"), "no section for \(command)")
            for option in options { #expect(page.contains("\\fB\(option)\\fR"), "\(command) has no \(option)") }
        }
        for (codes, _) in ExitCode.documented { #expect(page.contains(".B \(codes)\n")) }
        // groff reads it without a warning (when the machine has groff, as Debian's man-db pulls in).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let groff = try ProcessRunner.run(
                "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z"], input: Array(r.stdout.utf8))
            #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
        }
    }

    @Test func bashParsesTheScriptAndCompletesACommandsOptions() async throws {
        let r = try await RingcheckBinary.run(["completion", "bash"])
        let dir = TemporaryDirectory()
        let script = dir.file("ringcheck.bash")
        try r.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        // Complete `ringcheck run --prof` and `ringcheck run --profile ` as bash would.
        let probe = """
            source \(script)
            COMP_WORDS=(ringcheck run --prof); COMP_CWORD=2; _ringcheck; echo "options: ${COMPREPLY[*]}"
            COMP_WORDS=(ringcheck run --profile ''); COMP_CWORD=3; _ringcheck; echo "profiles: ${COMPREPLY[*]}"
            COMP_WORDS=(ringcheck rep); COMP_CWORD=1; _ringcheck; echo "commands: ${COMPREPLY[*]}"
            """
        let out = try ProcessRunner.run("/bin/bash", ["-c", probe])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("options: --profile"))
        #expect(out.stdout.contains("profiles: callx dialstack push-service onesignal all"))
        #expect(out.stdout.contains("commands: report"))
    }

    @Test func anUnknownShellIsAUsageError() async throws {
        let r = try await RingcheckBinary.run(["completion", "tcsh"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown shell 'tcsh' (shells: bash, zsh, fish)"))
    }

    @Test func versionNamesTheReleaseAndTheCommit() async throws {
        let r = try await RingcheckBinary.run(["--version"])
        #expect(r.status == 0)
        let line = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("ringcheck \(RingcheckVersion.current) (commit "))
        // Built from this checkout, the commit is one of its commits (maybe marked dirty), never `unknown`. Not
        // necessarily HEAD: a commit made after the build, before `swift test --skip-build`, moves HEAD on.
        let commit = try #require(
            line.split(separator: " ").last.map { String($0.dropLast()) }?.replacingOccurrences(of: "-dirty", with: ""))
        #expect(commit.count == 12 && commit.allSatisfy(\.isHexDigit), "\(line)")
        let known = try ProcessRunner.run(
            "/usr/bin/git", ["-C", TargetCommandTests.repositoryRoot, "cat-file", "-e", commit + "^{commit}"])
        #expect(known.status == 0, "\(line) names no commit of this checkout: \(known.stderr)")
    }
}
