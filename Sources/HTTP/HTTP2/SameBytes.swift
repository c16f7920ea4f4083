import Glibc

/// Whether `a` holds the bytes of `b`, compared with `memcmp`: the HTTP/2 session's field caches compare
/// what a peer sent against what it sent before on every field.
func sameBytes(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard a.count > 0, let base = b.baseAddress else { return true }
    return a.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, b.count) == 0 }
}
