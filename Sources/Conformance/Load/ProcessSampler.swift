import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One look at a process: CPU time used so far and resident memory, `atSeconds` after sampling began.
public struct ProcessSample: Sendable, Equatable, Codable {
    public var atSeconds: Double
    public var cpuSeconds: Double
    public var rssKiB: Int

    /// Creates a value from its parts.
    public init(atSeconds: Double, cpuSeconds: Double, rssKiB: Int) {
        self.atSeconds = atSeconds
        self.cpuSeconds = cpuSeconds
        self.rssKiB = rssKiB
    }
}

/// Reads a process's CPU time and resident memory from `/proc/<pid>/stat` and `/proc/<pid>/status`.
public enum ProcessUsage {
    /// CPU seconds (user + system) and resident KiB of `pid`; nil when it cannot be read (gone, not Linux).
    public static func read(pid: Int32) -> (cpuSeconds: Double, rssKiB: Int)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return nil }
        return parse(stat: stat, status: status, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// The same from the files' text: utime and stime are fields 14 and 15 of `stat` (counted after the
    /// command name in parentheses, which may hold spaces), VmRSS a line of `status`.
    public static func parse(stat: String, status: String, ticksPerSecond: Double) -> (cpuSeconds: Double, rssKiB: Int)?
    {
        guard let close = stat.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime (14) is fields[11], stime (15) fields[12].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        var rss = 0
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            rss = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return ((user + system) / ticksPerSecond, rss)
    }
}

/// Samples a process once a second while a load run goes on.
final class ProcessSampler: Sendable {
    let process: WatchedProcess
    private let samples = Mutex<[ProcessSample]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let began = ContinuousClock.now

    init(process: WatchedProcess) { self.process = process }

    func start() {
        sample()
        let t = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                self?.sample()
            }
        }
        task.withLock { $0 = t }
    }

    func sample() {
        guard let usage = ProcessUsage.read(pid: process.pid) else { return }
        let at = LoadDriver.seconds(ContinuousClock.now - began)
        samples.withLock { $0.append(ProcessSample(atSeconds: at, cpuSeconds: usage.cpuSeconds, rssKiB: usage.rssKiB)) }
    }

    /// Stops sampling after one last sample; every sample taken.
    func stop() async -> [ProcessSample] {
        let t = task.withLock { $0 }
        t?.cancel()
        await t?.value
        sample()
        return samples.withLock { $0 }
    }
}
