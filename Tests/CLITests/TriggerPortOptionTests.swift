import Conformance
import PushMocks
import Testing

@testable import RingcheckCLI

/// `trigger --port NAME=PORT`: the mocks' ports by listener, read by the one parser `mocks` uses
/// (`MockPortOptions`), with the per-provider options as aliases derived from the providers' listeners.
/// In process: the options as parsed, no mocks started.
@Suite struct TriggerPortOptionTests {
    static func trigger(_ arguments: [String]) throws -> TriggerCommand {
        let parsed = try ArgumentParser.parse(
            ["onesignal", "--url", "http://127.0.0.1:9"] + arguments, for: TriggerCommand.configuration)
        return try TriggerCommand(arguments: parsed, environment: [:])
    }

    @Test func theAliasesAreTheListenersNamesAsOptionsAndBothCommandsTakeThem() {
        let aliases = MockPortOptions.aliases()
        #expect(
            aliases.map(\.option) == [
                "apns-port", "apns-sandbox-port", "google-port", "onesignal-port", "dialstack-port", "control-port",
            ])
        #expect(aliases.map(\.name) == ["apns", "apnsSandbox", "google", "onesignal", "dialstack", "control"])
        for configuration in [TriggerCommand.configuration, MocksCommand.configuration] {
            let declared = Set(configuration.options.map(\.name))
            #expect(declared.isSuperset(of: ["port"] + aliases.map(\.option)), "\(configuration.name)")
        }
        let port = MockPortOptions.specs().first { $0.name == "port" }
        #expect(port?.help.hasSuffix("control (fcm and oauth share google).") == true, "\(port?.help ?? "")")
    }

    @Test func namesAndAliasesSetTheListenersPorts() throws {
        let t = try Self.trigger([
            "--port", "apns=8443", "--apns-sandbox-port", "8444", "--port", "fcm=8445", "--onesignal-port", "8446",
        ])
        #expect(t.mockOptions.ports == ["apns": 8443, "apnsSandbox": 8444, "google": 8445, "onesignal": 8446])
        // The old spellings alone, as scripts of earlier versions give them.
        let old = try Self.trigger(["--apns-port", "1", "--google-port", "2", "--onesignal-port", "3"])
        #expect(old.mockOptions.ports == ["apns": 1, "google": 2, "onesignal": 3])
        #expect(try Self.trigger([]).mockOptions.ports.isEmpty)
    }

    @Test(arguments: [
        (["--port", "apnz=1"], "no mock listener or provider 'apnz'; did you mean 'apns'?"),
        (["--port", "apns"], "--port takes NAME=PORT"),
        (["--port", "apns=70000"], "--port apns=PORT"),
        (["--google-port", "9001", "--port", "oauth=9002"], "give the google listener two ports"),
    ])
    func badPortsAreUsageErrorsOfTrigger(arguments: [String], message: String) {
        #expect {
            _ = try Self.trigger(arguments)
        } throws: { error in
            let usage = error as? UsageError
            return usage?.command == "trigger" && usage?.message.contains(message) == true
        }
    }
}
