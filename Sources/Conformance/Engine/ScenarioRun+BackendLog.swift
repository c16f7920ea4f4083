import Foundation
import PushMocks
import Reports

extension ScenarioRun {
    /// Reads the backend's log for `e.duration` and charges the first secret found in it: a push token
    /// of this scenario's devices, the full body of a push sent to them, or one of `e.values`.
    func expectNotLogged(_ e: ExpectNotLoggedStep, step: ScenarioStep) async throws {
        guard let path = engine.target.backendLog else {
            throw HarnessStop(message: "\(step.path): the target names no backend log")
        }
        var extra: [String] = []
        for v in e.values { extra.append(try resolver.string(v)) }
        let deadline = ContinuousClock.now + .milliseconds(e.duration.milliseconds)
        while true {
            let secrets = scenarioSecrets() + extra.map { ("a value the scenario named", $0) }
            let log = Self.readLog(path)
            if let (what, _, line) = Self.firstLeak(secrets, in: log) {
                try fail(
                    e.requirement, check: "\(step.path) expectNotLogged",
                    expected: "no push token or push payload in the backend log (\(path))",
                    actual: "the log carries \(what)",
                    evidence: [
                        EvidenceItem(
                            kind: .note, title: "backend log line (secrets shortened)",
                            text: Self.redacted(line, secrets.map(\.1)))
                    ])
                return
            }
            if ContinuousClock.now >= deadline { return }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What must never be logged, with how to name it: each device's tokens and each push body sent to them.
    func scenarioSecrets() -> [(String, String)] {
        var out: [(String, String)] = []
        for d in devices.values.sorted(by: { $0.name < $1.name }) {
            for t in d.tokens where !t.isEmpty { out.append(("\(d.name)'s push token", t)) }
        }
        let list = Array(devices.values)
        for c in engine.mocks.log.captures(where: { c in list.contains { Self.capture(c, isFor: $0) } }) {
            guard c.body.count >= 32 else { continue }
            out.append(("the full payload of push #\(c.sequence)", String(decoding: c.body, as: UTF8.self)))
        }
        return out
    }

    static func readLog(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The first secret found in `log`, with the line it is on.
    static func firstLeak(_ secrets: [(String, String)], in log: String) -> (String, String, String)? {
        for (what, secret) in secrets {
            guard let range = log.range(of: secret) else { continue }
            let start = log[..<range.lowerBound].lastIndex(of: "\n").map { log.index(after: $0) } ?? log.startIndex
            let end = log[range.upperBound...].firstIndex(of: "\n") ?? log.endIndex
            return (what, secret, String(log[start..<end]))
        }
        return nil
    }

    /// `line` with every secret shortened (longest first, so a payload goes before the token inside
    /// it), cut to 2,000 characters.
    static func redacted(_ line: String, _ secrets: [String]) -> String {
        var out = line
        for secret in secrets.sorted(by: { $0.count > $1.count }) where out.contains(secret) {
            out = out.replacingOccurrences(of: secret, with: Redaction.shortToken(secret))
        }
        return out.count > 2_000 ? String(out.prefix(2_000)) + "…" : out
    }
}
