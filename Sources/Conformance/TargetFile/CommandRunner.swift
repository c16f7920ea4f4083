import Foundation
import HTTP
import InputLimits
import Processes

/// Why a command from a target file did not give what was asked.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Runs a target file's short commands (token commands) to completion with a time limit: a
/// `ChildProcess` (its own process group, killed with it when it overstays) whose output goes to files,
/// waited for on a thread of its own, never on the cooperative pool.
public enum CommandRunner {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `command` from `directory`; throws when it cannot start or outlasts `timeout` seconds.
    public static func run(_ command: BackendCommand, in directory: String, timeout: Double) async throws -> Output {
        try await onThreadOfItsOwn { try runBlocking(command, in: directory, timeout: timeout) }
    }

    static func runBlocking(_ command: BackendCommand, in directory: String, timeout: Double) throws -> Output {
        let dir = NSTemporaryDirectory() + "ringcheck-cmd-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outFD = open(dir + "/out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errFD = open(dir + "/err", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let inFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { for fd in [outFD, errFD, inFD] where fd >= 0 { close(fd) } }
        guard outFD >= 0, errFD >= 0, inFD >= 0 else { throw CommandError(message: "cannot open output files") }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                command.argv, stdin: inFD, stdout: outFD, stderr: errFD, workingDirectory: directory)
        } catch { throw CommandError(message: "cannot start '\(command)': \(error)") }
        guard let status = child.wait(timeout: timeout) else {
            child.kill()
            throw CommandError(message: "'\(command)' did not finish within \(timeout) s")
        }
        func read(_ name: String) throws -> String {
            do { return try BoundedFile.text(dir + "/" + name) } catch {
                throw CommandError(message: "'\(command)' std\(name): \(error.reasonText)")
            }
        }
        return Output(status: status, stdout: try read("out"), stderr: try read("err"))
    }
}
