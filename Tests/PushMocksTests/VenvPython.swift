import Foundation
import TestSupport
import Testing

/// The tests' Python venv (`.ci/run` creates it with OneSignal's SDK and an OpenAPI validator and exports
/// `RINGCHECK_PYTHON`): outside CI an unset variable skips the tests that need it; in CI it fails them, so a
/// missing install step cannot pass unnoticed.
enum VenvPython {
    static let variable = "RINGCHECK_PYTHON"

    static var interpreter: String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var inCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// Run when the interpreter is named, and always in CI (where its absence is a failure).
    static var shouldRun: Bool { interpreter != nil || inCI }

    static let install =
        "python3 -m venv /opt/ringcheck-venv && /opt/ringcheck-venv/bin/pip install onesignal-python-api "
        + "firebase-admin aioapns openapi-spec-validator, then RINGCHECK_PYTHON=/opt/ringcheck-venv/bin/python"

    /// The interpreter when it can import `module` (of PyPI package `package`); otherwise records why, with
    /// the install line, and returns nil.
    static func interpreter(
        importing module: String, package: String, clients: MockStackClients,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String? {
        guard let python = interpreter else {
            Issue.record(
                Comment(rawValue: "CI is set but \(variable) is not: .ci/run must create the venv (\(install))"),
                sourceLocation: sourceLocation)
            return nil
        }
        let probe = try? await clients.run(python, ["-c", "import \(module)"], timeout: 60)
        guard let probe, probe.status == 0 else {
            Issue.record(
                Comment(
                    rawValue: "\(variable)=\(python) cannot import \(module) (\(package)): "
                        + "\(probe?.stderr ?? "it does not run"). Install it: \(install)"),
                sourceLocation: sourceLocation)
            return nil
        }
        return python
    }
}
