import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// The tests' Python venv (`.ci/run` creates it with the client libraries and an OpenAPI validator and exports
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

    /// The trait of a test that needs the venv: skipped outside CI when `RINGCHECK_PYTHON` is unset.
    static let enabled = ConditionTrait.enabled(
        if: shouldRun, "RINGCHECK_PYTHON is unset (and this is not CI): skipped. To run it: \(install)")

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

    /// Runs `script` with `arguments` under `python` (with the `NAME=value` settings of `environment`) and
    /// returns the JSON it printed; a script that fails or prints anything else fails the test with its
    /// output, secrets redacted.
    static func runJSON(
        _ python: String, script: String, _ arguments: [String], environment: [String] = [],
        clients: MockStackClients, timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let run = try await clients.run(
            "/usr/bin/env", environment + [python, "-c", script] + arguments, timeout: timeout)
        return try #require(
            run.status == 0 ? try? JSONValue.parse(run.stdoutBytes) : nil,
            "the script exited \(run.status): \(Redaction.redactingOutput(run.stderr + run.stdout))",
            sourceLocation: sourceLocation)
    }
}
