import AllProfiles
import Callx
import Conformance
import DialStack
import Testing

@testable import RingcheckCLI

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

    /// `check-payload`, `load` and `trigger` read their profiles from the registry in force at use, not from the
    /// shipped list: a profile the registry lacks is refused as unknown, its options are none of theirs, and their
    /// help lists only what is registered.
    @Test func theCommandsProfileListsFollowTheInjectedRegistry() async {
        let registry = ProfileRegistry([CallxProfile(), DialStackProfile()])
        let missing = "/nonexistent/ringcheck-injected-registry.json"

        let check = await Self.ringcheck(["check-payload", "--profile", "push-service", missing], profiles: registry)
        #expect(check.0 == .usage)
        #expect(
            check.1.error.contains("--profile 'push-service' has no push rules to check (callx, dialstack)"),
            "\(check.1.error)")
        let appId = await Self.ringcheck(["check-payload", "--app-id", "x", missing], profiles: registry)
        #expect(appId.0 == .usage)
        #expect(appId.1.error.contains("unknown option '--app-id'"), "\(appId.1.error)")

        let load = await Self.ringcheck(["load", "--profile", "push-service"], profiles: registry)
        #expect(load.0 == .usage)
        #expect(load.1.error.contains("unknown profile 'push-service'"), "\(load.1.error)")

        let trigger = await Self.ringcheck(
            ["trigger", "push-service", "--url", "http://127.0.0.1:1"], profiles: registry)
        #expect(trigger.0 == .usage)
        #expect(
            trigger.1.error.contains("trigger knows the profiles dialstack, not 'push-service'"), "\(trigger.1.error)")

        let help = await Self.ringcheck(["help", "check-payload"], profiles: registry)
        #expect(help.1.out.contains("Whose push rules: callx, dialstack."), "\(help.1.out)")
        #expect(!help.1.out.contains("--app-id"), "\(help.1.out)")
        let loadHelp = await Self.ringcheck(["help", "load"], profiles: registry)
        #expect(loadHelp.1.out.contains("The profile to load: callx or dialstack."), "\(loadHelp.1.out)")
    }

    /// The reading commands' help (`list`, `explain` through `SuiteChoice.options`, and `validate`) names the
    /// profiles of the registry in force, not the shipped list.
    @Test func theReadingCommandsHelpFollowsTheInjectedRegistry() async {
        let registry = ProfileRegistry([CallxProfile(), DialStackProfile()])
        for command in ["list", "explain", "validate"] {
            let injected = await Self.ringcheck(["help", command], profiles: registry)
            #expect(injected.1.out.contains("callx, dialstack."), "\(command): \(injected.1.out)")
            #expect(!injected.1.out.contains("push-service"), "\(command): \(injected.1.out)")
            let shipped = await Self.ringcheck(["help", command], profiles: Profiles.registry)
            #expect(shipped.1.out.contains("push-service"), "\(command): \(shipped.1.out)")
        }
    }

    /// `check-payload --help` takes its rules' name, its document text and its examples from the registered
    /// profiles' document judges (`PayloadDocumentJudge`): without Callx in the registry none of Callx's is left.
    @Test func checkPayloadsHelpComesFromTheDocumentJudges() async {
        let shipped = await Self.ringcheck(["help", "check-payload"], profiles: Profiles.registry)
        #expect(shipped.1.out.contains("against \(PayloadProfile.rulesName) and list"), "\(shipped.1.out)")
        #expect(shipped.1.out.contains(PayloadProfile.documentHelp), "\(shipped.1.out)")
        #expect(PayloadProfile.examples.allSatisfy { shipped.1.out.contains($0) }, "\(shipped.1.out)")

        let injected = await Self.ringcheck(["help", "check-payload"], profiles: ProfileRegistry([DialStackProfile()]))
        #expect(injected.0 == .success)
        #expect(injected.1.out.contains("against the dialstack push rules and list"), "\(injected.1.out)")
        #expect(injected.1.out.contains("--profile dialstack judges captures"), "\(injected.1.out)")
        #expect(!injected.1.out.lowercased().contains("callx"), "\(injected.1.out)")
    }
}
