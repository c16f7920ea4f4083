import Foundation

/// Values a run provides to a target file as `${NAME}` in `baseURL`, `lifecycle.ready.url`, the
/// lifecycle's commands and its `environment`, and the texts a profile's configuration names
/// (`ProfileConfiguration.runVariableTexts`) (also set in the commands' environment), so that a
/// file needs no fixed port, no `ringcheck` on PATH and no state folder of its own:
///
/// - `RINGCHECK_EXECUTABLE`: the path of the running ringcheck (`[${RINGCHECK_EXECUTABLE}, serve-reference]`)
/// - `RINGCHECK_BACKEND_PORT`: a free loopback port, chosen once per run (a restart keeps it)
/// - `RINGCHECK_BACKEND_SECOND_PORT`: another free loopback port, for a backend that listens on two (the
///   onesignal profile's `unconfigured.baseURL`, a second process started without its provider's settings)
/// - `RINGCHECK_BACKEND_STATE_DIR`: an empty folder for the run's backend state (a database that
///   outlives a restart), removed after the run
public struct TargetRunVariables: Sendable, Equatable {
    public static let executable = "RINGCHECK_EXECUTABLE"
    public static let backendPort = "RINGCHECK_BACKEND_PORT"
    public static let backendSecondPort = "RINGCHECK_BACKEND_SECOND_PORT"
    public static let stateDirectory = "RINGCHECK_BACKEND_STATE_DIR"
    public static let names = [executable, backendPort, backendSecondPort, stateDirectory]

    public var values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    /// `text` with every `${NAME}` of a known variable replaced (others stay as they are), in one pass: a
    /// value that itself holds `${…}` is not filled again.
    public func fill(_ text: String) -> String {
        guard text.contains("${") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            out += values[name] ?? String(rest[open.lowerBound...close])
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The text between `${` and `}` of every reference in `text`, in order (an unclosed `${` is none).
    public static func references(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            names.append(String(rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    func fill(_ command: BackendCommand?) -> BackendCommand? {
        switch command {
        case .arguments(let a): return .arguments(a.map(fill))
        case .shell(let line): return .shell(fill(line))
        case nil: return nil
        }
    }
}

extension TargetFile {
    /// The run variables the file names (`${NAME}` anywhere they are filled in).
    public var runVariablesUsed: Set<String> {
        var texts = [baseURL] + profileConfiguration.runVariableTexts
        if let l = lifecycle {
            texts += [l.ready?.url].compactMap { $0 } + Array(l.environment.values)
            texts += [l.start, l.stop, l.restart].compactMap { $0 }.flatMap(\.argv)
        }
        return Set(TargetRunVariables.names.filter { name in texts.contains { $0.contains("${\(name)}") } })
    }

    /// The file with the run's variables filled in, and set in the lifecycle's environment.
    public func filling(_ variables: TargetRunVariables) -> TargetFile {
        var out = self
        out.baseURL = variables.fill(baseURL)
        out.profileConfiguration = profileConfiguration.filling(variables)
        if name.contains("${") { out.name = variables.fill(name) }
        if var l = lifecycle {
            l.start = variables.fill(l.start)
            l.stop = variables.fill(l.stop)
            l.restart = variables.fill(l.restart)
            if let url = l.ready?.url { l.ready?.url = variables.fill(url) }
            l.environment = l.environment.mapValues(variables.fill)
            for (name, value) in variables.values where l.environment[name] == nil { l.environment[name] = value }
            out.lifecycle = l
        }
        return out
    }
}
