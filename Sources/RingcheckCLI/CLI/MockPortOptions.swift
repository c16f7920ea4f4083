import Conformance
import InputLimits
import PushMocks

/// The mocks' port options, one parser for every command that starts the mocks (`mocks`, `trigger`):
/// `--port NAME=PORT` (repeatable) for any name `MockProviders.portNames()` knows, and one alias per
/// listener, `--<listener>-port PORT` (`--apns-port`, `--apns-sandbox-port`, `--google-port`,
/// `--onesignal-port`, `--control-port`), the spellings of earlier versions. The names and the aliases come
/// from the registered mock providers' listeners, so a provider added to the registry brings its own.
///
/// ```swift
/// options: [.value("host", "ADDRESS", help: "…")] + MockPortOptions.specs(),
/// mockOptions.ports = try MockPortOptions.ports(arguments, command: "trigger")  // ["apns": 8443, …]
/// ```
enum MockPortOptions {
    /// Each listener's alias option (`apns-sandbox-port`) with the NAME it stands for (`apnsSandbox`): every
    /// listener of `registered`, then the control API's, in `portNames` order.
    static func aliases(registered: [any MockProvider.Type] = MockProviders.registered)
        -> [(option: String, name: String)]
    {
        MockProviders.portNames(registered: registered).filter { $0.name == $0.listener }.map {
            (option: kebabCase($0.name) + "-port", name: $0.name)
        }
    }

    /// `--port NAME=PORT` and the aliases, as `--help` lists them.
    static func specs(registered: [any MockProvider.Type] = MockProviders.registered) -> [OptionSpec] {
        let names = MockProviders.portNames(registered: registered)
        // Provider IDs that name another listener: "fcm and oauth share google".
        var shared: [(listener: String, names: [String])] = []
        for entry in names where entry.name != entry.listener {
            if let i = shared.firstIndex(where: { $0.listener == entry.listener }) {
                shared[i].names.append(entry.name)
            } else {
                shared.append((entry.listener, [entry.name]))
            }
        }
        let sharing = shared.map { "\($0.names.joined(separator: " and ")) share \($0.listener)" }
        let port = OptionSpec.value(
            "port", "NAME=PORT",
            help: "Port of one listener: \(names.map(\.name).joined(separator: ", "))"
                + (sharing.isEmpty ? "." : " (\(sharing.joined(separator: "; ")))."),
            default: "ephemeral", repeatable: true)
        return [port]
            + aliases(registered: registered).map { alias in
                .value(
                    alias.option, "PORT",
                    help: "Same as --port \(alias.name)=PORT\(served(by: alias.name, registered)).",
                    number: .port)
            }
    }

    /// ` (FCM and Google OAuth)` for a listener several providers share, ` (the control API, plain HTTP)` for
    /// the control API's, else "".
    private static func served(by listener: String, _ registered: [any MockProvider.Type]) -> String {
        if listener == MockStack.controlListener { return " (the control API, plain HTTP)" }
        var names: [String] = []
        for provider in registered where provider.listeners.contains(where: { $0.name == listener }) {
            names.append(provider.displayName)
        }
        return names.count > 1 ? " (" + names.joined(separator: " and ") + ")" : ""
    }

    /// The listeners' ports from `--port NAME=PORT` (repeatable) and the aliases: an unknown NAME (with the
    /// closest known one), a bad PORT, or two different ports for one listener is a usage error of `command`.
    static func ports(_ arguments: ParsedArguments, command: String) throws -> [String: Int] {
        var given: [(listener: String, port: Int, spelling: String)] = []
        for alias in aliases() {
            guard let port = try arguments.int(alias.option) else { continue }
            given.append((try listener(alias.name, command: command), port, "--\(alias.option) \(port)"))
        }
        for entry in arguments.all("port") {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(
                    message: "--port takes NAME=PORT (apns=8443), not '\(Suggestion.shown(entry))'", command: command)
            }
            let port: Int
            do {
                port = Int(try CheckedNumber.int64(parts[1], in: Int64(0)...Int64(65_535)))
            } catch {
                throw UsageError(message: "--port \(Suggestion.shown(parts[0]))=PORT \(error)", command: command)
            }
            given.append((try listener(parts[0], command: command), port, "--port \(Suggestion.shown(entry))"))
        }
        var ports: [String: Int] = [:]
        for (i, g) in given.enumerated() {
            if let earlier = given[..<i].first(where: { $0.listener == g.listener && $0.port != g.port }) {
                throw UsageError(
                    message: "\(earlier.spelling) and \(g.spelling) give the \(g.listener) listener two ports",
                    command: command)
            }
            ports[g.listener] = g.port
        }
        return ports
    }

    /// The listener a `--port` NAME sets.
    private static func listener(_ name: String, command: String) throws -> String {
        if let listener = MockProviders.listener(forPortName: name) { return listener }
        let names = MockProviders.portNames().map(\.name)
        var message = "--port: no mock listener or provider '\(Suggestion.shown(name))'"
        if let close = Suggestion.closest(to: name, among: names, limit: 3) { message += "; did you mean '\(close)'?" }
        throw UsageError(message: message + " (names: \(names.joined(separator: ", ")))", command: command)
    }

    /// `apnsSandbox` → `apns-sandbox`.
    static func kebabCase(_ name: String) -> String {
        name.reduce(into: "") { out, c in
            if c.isUppercase {
                out += "-" + c.lowercased()
            } else {
                out.append(c)
            }
        }
    }
}
