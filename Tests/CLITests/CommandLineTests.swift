import TestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func topLevelHelpListsCommandsAndExitCodes() async throws {
        let r = try await RingcheckBinary.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("COMMANDS:"))
        #expect(r.stdout.contains("mocks"))
        #expect(r.stdout.contains("EXIT CODES:"))
    }

    @Test func noArgumentsIsAUsageError() async throws {
        let r = try await RingcheckBinary.run([])
        #expect(r.status == 2)
        #expect(r.stderr.contains("USAGE: ringcheck <command>"))
    }

    @Test func unknownCommandSuggestsTheClosestOne() async throws {
        let r = try await RingcheckBinary.run(["mock"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean 'mocks'?"))
    }

    @Test func unknownOptionSuggestsTheClosestOne() async throws {
        let r = try await RingcheckBinary.run(["mocks", "--bundle", "x"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean '--bundle-id'?"))
        #expect(r.stderr.contains("ringcheck mocks --help"))
    }

    @Test func missingOptionValueIsAUsageError() async throws {
        let r = try await RingcheckBinary.run(["mocks", "--env-file"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--env-file needs a value"))
    }

    @Test func commandHelpExplainsEveryOption() async throws {
        let r = try await RingcheckBinary.run(["mocks", "--help"])
        #expect(r.status == 0)
        for option in ["--host", "--apns-port", "--env-file", "--json", "--state-dir", "--control-port"] {
            #expect(r.stdout.contains(option), "help lacks \(option)")
        }
    }

    @Test func versionIsPrinted() async throws {
        let r = try await RingcheckBinary.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("ringcheck "))
    }
}
