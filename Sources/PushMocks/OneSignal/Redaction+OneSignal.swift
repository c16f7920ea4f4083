extension Redaction {
    /// A OneSignal REST API key (`os_v2_app_` or `os_v2_org_` and its run of letters and digits), wherever
    /// it appears in free text: a kit server's log line or an error it printed.
    static func oneSignalKey(_ bytes: [UInt8], at i: Int) -> OutputMatch? {
        guard bytes[i] == UInt8(ascii: "o"), i == 0 || !isASCIILetter(bytes[i - 1]),
            hasPrefix(Array("os_v2_app_".utf8), in: bytes, at: i)
                || hasPrefix(Array("os_v2_org_".utf8), in: bytes, at: i)
        else { return nil }
        var end = i + 10
        while end < bytes.count && (isASCIILetter(bytes[end]) || (bytes[end] >= 0x30 && bytes[end] <= 0x39)) {
            end += 1
        }
        guard end - i >= 20 else { return nil }
        return (end, Array("<redacted>".utf8))
    }
}
