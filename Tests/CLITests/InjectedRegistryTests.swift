import AllProfiles
import Callx
import Conformance
import Testing

@testable import ringcheck

/// The CLI's commands run in process over the registry they are given (`Ringcheck.dispatch(_:profiles:)`), not
/// the shipped `Profiles.all`, and `Console.capture` keeps what they print.
@Suite struct InjectedRegistryTests {
    static func ringcheck(_ args: [String], profiles: ProfileRegistry) async -> (ExitCode, ConsoleCapture) {
        let console = ConsoleCapture()
        let code = await Console.$capture.withValue(console) { await Ringcheck.dispatch(args, profiles: profiles) }
        return (code, console)
    }

    @Test func aCommandSeesOnlyTheProfilesItIsGiven() async {
        let shipped = await Self.ringcheck(["list", "--profile", "dialstack"], profiles: Profiles.registry)
        #expect(shipped.0 == .success, "\(shipped.1.error)")
        #expect(shipped.1.out.contains("(suite dialstack "), "\(shipped.1.out)")

        let callxOnly = await Self.ringcheck(
            ["list", "--profile", "dialstack"], profiles: ProfileRegistry([CallxProfile()]))
        #expect(callxOnly.0 == .usage)
        #expect(callxOnly.1.error.contains("unknown profile 'dialstack'"), "\(callxOnly.1.error)")
        #expect(callxOnly.1.error.contains("(profiles: callx)"), "\(callxOnly.1.error)")
        #expect(callxOnly.1.out.isEmpty)
    }
}
