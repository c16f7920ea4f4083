extension String {
    /// True when every byte is printable ASCII or a tab. For such text a `Character` is one byte and
    /// comparisons need no normalisation, so byte-level parsing gives exactly what `Character` code would.
    var isPlainASCII: Bool {
        var copy = self
        return copy.withUTF8 { bytes in bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 } }
    }
}
