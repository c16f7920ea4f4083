#if canImport(Glibc)
    import Glibc
#endif

extension String {
    /// Whether `needle`'s UTF-8 bytes occur in this string's: byte for byte, no Unicode normalisation or locale
    /// (`memchr` for the first byte, `memcmp` for the rest; Glibc's module map leaves out `memmem`). The checks that
    /// search every captured push for known secrets call it per push and per secret; Foundation's `contains(_:)`,
    /// the overload Swift picks once Foundation is imported, went through `NSString.range(of:)` and took about a
    /// fifth of `ringcheck load`'s CPU (benchmarks/README.md).
    ///
    ///     "{\"k\":\"-----BEGIN\"}".containsBytes(of: "BEGIN")  // true
    package func containsBytes(of needle: String) -> Bool {
        if needle.isEmpty { return true }
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                guard n.count <= h.count, let hb = h.baseAddress, let nb = n.baseAddress else { return false }
                let last = h.count - n.count  // the last offset where the needle still fits
                var at = 0
                while at <= last, let hit = memchr(hb + at, Int32(nb.pointee), last - at + 1) {
                    let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(hb)
                    if memcmp(hb + offset, nb, n.count) == 0 { return true }
                    at = offset + 1
                }
                return false
            }
        }
    }
}
