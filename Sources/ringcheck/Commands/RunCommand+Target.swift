import Conformance
import Foundation
import HTTP
import PushMocks

/// What `ringcheck run` tests: a target with the mocks its pushes reach, and how to stop both.
struct RunBackend {
    let target: Target
    let mocks: MockStack
    let stop: @Sendable () async -> Void
    /// Most scenarios the target can run at once (its pool of fixed accounts), nil for no limit.
    var maxConcurrency: Int?
}

/// Why a target cannot be tested (unreachable, mocks that cannot start): the run is inconclusive.
struct TargetUnavailable: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// `run --target FILE`: the backend a target file describes.
enum FileTarget {
    /// Loads the file; its problems (file:line: field: message) are a configuration error.
    static func load(_ path: String) throws -> TargetFile {
        do { return try TargetFile.load(path: path) } catch {
            throw ConfigurationError(message: "the target file has problems:\n\(error)")
        }
    }

    /// Starts the mocks the file asks for, checks the backend answers, and builds the target.
    static func start(_ file: TargetFile, announce: Bool) async throws -> RunBackend {
        if file.insecureSkipVerify {
            Console.error(
                """
                ringcheck run: WARNING: \(file.path) sets tls.insecureSkipVerify: the backend's certificate is NOT \
                verified. Anyone on the path could answer for it; do not trust this run's verdict for a deployment.
                """)
        }
        let mocks: MockStack
        do { mocks = try MockStack.start(file.mocks?.options ?? MockStack.Options()) } catch {
            throw TargetUnavailable(message: "cannot start the mocks: \(error)")
        }
        do {
            try writeSettings(mocks, file.mocks)
            if announce { Console.out(settingsSummary(mocks, file)) }
            try await checkReachable(file)
        } catch {
            mocks.stop()
            throw error
        }
        let target = file.target(defaultAppId: mocks.providers.credentials.bundleID)
        return RunBackend(target: target, mocks: mocks, stop: { mocks.stop() }, maxConcurrency: file.poolSize)
    }

    static func writeSettings(_ mocks: MockStack, _ m: TargetMocks?) throws {
        do {
            if let f = m?.envFile { try mocks.settings.envFile().write(toFile: f, atomically: true, encoding: .utf8) }
            if let f = m?.jsonFile { try mocks.settings.json().write(toFile: f, atomically: true, encoding: .utf8) }
        } catch {
            throw TargetUnavailable(message: "cannot write the mock settings: \(error.localizedDescription)")
        }
    }

    /// The RINGCHECK_* settings the backend must use to reach the mocks.
    static func settingsSummary(_ mocks: MockStack, _ file: TargetFile) -> String {
        var out = "Mocks for \(file.name) (the backend must use these settings and trust the CA file):\n"
        for (name, value) in mocks.settings.environment { out += "  \(name)=\(value)\n" }
        if file.mocks == nil {
            out += "  (no mocks: section in \(file.path): these ports are new each run; fix them there for a "
            out += "backend configured in advance)\n"
        }
        return out
    }

    /// Any HTTP answer from the base URL will do; no answer at all makes the run inconclusive.
    static func checkReachable(_ file: TargetFile) async throws {
        let client = try HTTPClient(
            configuration: .init(
                caFile: file.caFile, insecureSkipVerify: file.insecureSkipVerify, timeoutSeconds: 10,
                connectTimeoutSeconds: 5, httpVersion: file.baseURL.hasPrefix("https://") ? .automatic : .http1_1))
        defer { client.shutdown() }
        do { _ = try await client.send(ClientRequest(method: "GET", url: file.baseURL + "/")) } catch {
            throw TargetUnavailable(message: "the backend at \(file.baseURL) does not answer: \(error)")
        }
    }
}

extension EmbeddedReference {
    var backend: RunBackend {
        let server = self.server
        let mocks = self.mocks
        return RunBackend(
            target: target, mocks: mocks,
            stop: {
                await server.stop()
                mocks.stop()
            })
    }
}
