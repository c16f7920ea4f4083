import Foundation

/// A process named by its pid and its start time, for checks that a process is gone (a test's, or a
/// start's look at whose temporary folder is stale): pids wrap at 32,768 here and a test run starts
/// thousands of processes, so a bare `kill(pid, 0)` after the process ended can find a newer process
/// given the same pid.
public struct ProcessIdentity: Sendable, CustomStringConvertible {
    public let pid: pid_t
    /// The start time in clock ticks since boot (field 22 of `/proc/PID/stat`); nil when the process was
    /// already gone when it was observed.
    public let startTime: String?

    /// This process.
    public static var current: ProcessIdentity { ProcessIdentity(getpid()) }

    /// Observes `pid` now; call it while the process runs.
    public init(_ pid: pid_t) {
        self.pid = pid
        startTime = Self.stat(pid).map { String($0.startTime) }
    }

    /// The process `pid` started at `startTime` (field 22 of its `/proc/PID/stat`, as the process wrote it).
    public init(_ pid: pid_t, startTime: String) {
        self.pid = pid
        self.startTime = startTime
    }

    /// Whether the process observed is still running: its pid names a process started at the same time
    /// that is not a zombie waiting for its reaper.
    public var isRunning: Bool {
        guard let startTime, let now = Self.stat(pid) else { return false }
        return now.startTime == startTime && now.state != "Z"
    }

    public var description: String { "process \(pid)" }

    /// The state and the start time from `/proc/PID/stat` (the fields after the command name, which may
    /// hold spaces and parentheses, so the split is at the last ")").
    private static func stat(_ pid: pid_t) -> (state: Substring, startTime: Substring)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field 22 (the start time) is fields[19].
        guard fields.count > 19 else { return nil }
        return (fields[0], fields[19])
    }
}
