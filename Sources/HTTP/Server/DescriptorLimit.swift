import Glibc

/// The process's limit on open descriptors (RLIMIT_NOFILE), raised once from its soft value to its
/// hard one, as Go's runtime does for every program.
///
/// The soft limit is often 1024, a legacy of `select()`; this code waits with epoll and libcurl's
/// poll, which have no such bound. A process that runs a mock stack for many backends, a load run's
/// hundreds of connections, or a test process with a hundred servers reaches 1024 at peaks, and a
/// server out of descriptors sheds the newest connection (`EventLoop.outOfDescriptors`): a push or a
/// request lost to the machine's settings, not to the backend. Servers and clients raise it when
/// they start.
public enum DescriptorLimit {
    /// `RLIM_INFINITY`, which Swift imports as a literal that does not fit `rlim_t`.
    static let infinity = rlim_t.max
    /// Raises the soft limit to the hard limit (at most the kernel's `fs.nr_open`) the first time it is
    /// called; later calls do nothing. A failure leaves the limit as it was.
    public static func raise() { _ = raisedOnce }

    /// The soft limit once raised: how many descriptors the process may hold (an unlimited one counts as
    /// the kernel's `fs.nr_open`, or 2³⁰).
    public static var current: Int {
        raise()
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        let value = limit.rlim_cur == Self.infinity ? kernelMaximum() ?? (1 << 30) : limit.rlim_cur
        return Int(min(value, 1 << 30))
    }

    private static let raisedOnce: Bool = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        var target = limit.rlim_max
        // An unlimited hard limit is refused for descriptors above fs.nr_open.
        if target == Self.infinity { target = kernelMaximum() ?? limit.rlim_cur }
        guard limit.rlim_cur != Self.infinity, target > limit.rlim_cur else { return true }
        limit.rlim_cur = target
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0
    }()

    /// `/proc/sys/fs/nr_open`, the most descriptors a process may be allowed.
    private static func kernelMaximum() -> rlim_t? {
        guard let file = fopen("/proc/sys/fs/nr_open", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 32)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let value = UInt64(String(text.filter { $0.isASCII && $0.isNumber })), value > 0 else { return nil }
        return rlim_t(value)
    }
}
