import Conformance
import InputLimits
import PushMocks

extension MocksCommand {
    /// The per-provider port options `--port NAME=PORT` replaced, each an alias of one NAME.
    static let portAliases = [
        (option: "apns-port", name: "apns"), (option: "apns-sandbox-port", name: "apnsSandbox"),
        (option: "google-port", name: "google"), (option: "onesignal-port", name: "onesignal"),
        (option: "control-port", name: "control"),
    ]

    /// The listeners' ports from `--port NAME=PORT` (repeatable) and the old per-provider options: an
    /// unknown NAME (with the closest known one), a bad PORT, or two different ports for one listener
    /// is a usage error.
    static func ports(_ arguments: ParsedArguments) throws -> [String: Int] {
        var given: [(listener: String, port: Int, spelling: String)] = []
        for alias in portAliases {
            guard let port = try arguments.int(alias.option) else { continue }
            given.append((try listener(alias.name), port, "--\(alias.option) \(port)"))
        }
        for entry in arguments.all("port") {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw usage("--port takes NAME=PORT (apns=8443), not '\(Suggestion.shown(entry))'")
            }
            let port: Int
            do {
                port = Int(try CheckedNumber.int64(parts[1], in: Int64(0)...Int64(65_535)))
            } catch {
                throw usage("--port \(Suggestion.shown(parts[0]))=PORT \(error)")
            }
            given.append((try listener(parts[0]), port, "--port \(Suggestion.shown(entry))"))
        }
        var ports: [String: Int] = [:]
        for (i, g) in given.enumerated() {
            if let earlier = given[..<i].first(where: { $0.listener == g.listener && $0.port != g.port }) {
                throw usage("\(earlier.spelling) and \(g.spelling) give the \(g.listener) listener two ports")
            }
            ports[g.listener] = g.port
        }
        return ports
    }

    /// The listener a `--port` NAME sets.
    private static func listener(_ name: String) throws -> String {
        if let listener = MockProviders.listener(forPortName: name) { return listener }
        let names = MockProviders.portNames().map(\.name)
        var message = "--port: no mock listener or provider '\(Suggestion.shown(name))'"
        if let close = Suggestion.closest(to: name, among: names, limit: 3) { message += "; did you mean '\(close)'?" }
        throw usage(message + " (names: \(names.joined(separator: ", ")))")
    }

    private static func usage(_ message: String) -> UsageError { UsageError(message: message, command: "mocks") }
}
