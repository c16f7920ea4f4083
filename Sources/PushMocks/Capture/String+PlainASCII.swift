extension String {
    /// True when every byte is printable ASCII or a tab. For such text a `Character` is one byte and
    /// comparisons need no normalisation, so byte-level parsing gives exactly what `Character` code would.
    var isPlainASCII: Bool {
        // Native strings are contiguous; the copy is for bridged ones.
        utf8.withContiguousStorageIfAvailable(Self.isPlainASCII)
            ?? Array(utf8).withUnsafeBufferPointer(Self.isPlainASCII)
    }

    private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where (b < 0x20 && b != 0x09) || b >= 0x7F { return false }
        return true
    }
}
