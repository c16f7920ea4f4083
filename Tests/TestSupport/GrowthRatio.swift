#if canImport(Glibc)
    import Glibc
#endif

/// Measures how the cost of a piece of work grows with its input, robust to a busy machine: the
/// thread's CPU time (not wall-clock time, which other processes stretch), the fastest of several
/// repeats (a preempted run only ever looks slower).
public enum GrowthRatio {
    /// The CPU seconds `work` takes on this thread, the least of `repeats` runs.
    public static func cpuSeconds(repeats: Int = 3, _ work: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = threadCPUSeconds()
            try work()
            best = min(best, threadCPUSeconds() - start)
        }
        return best
    }

    /// time(large) / time(small): about `large / small` when the work is linear, its square when
    /// quadratic. `work` is handed the size; the small size runs first, once to warm up.
    public static func ratio(small: Int, large: Int, repeats: Int = 3, _ work: (Int) throws -> Void) rethrows -> Double
    {
        try work(small)
        let a = try cpuSeconds(repeats: repeats) { try work(small) }
        let b = try cpuSeconds(repeats: repeats) { try work(large) }
        return b / max(a, 1e-6)
    }

    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
