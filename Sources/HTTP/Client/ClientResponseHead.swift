/// Collects response header fields from the raw lines libcurl hands its header callback.
///
/// A status line starts a new block (after `100 Continue` or an HTTP/2 status line), an obs-folded
/// line continues the previous field, the blank line is skipped; trailers of a chunked body are
/// appended after the header fields.
struct ClientResponseHead {
    private(set) var fields: [(String, String)] = []

    /// Takes one line, with or without its CRLF.
    mutating func take(line bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end == 0 { return }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            fields.removeAll()
        } else if line.first == " " || line.first == "\t", let previous = fields.popLast() {
            fields.append((previous.0, previous.1 + " " + Self.trimmingSpaces(line)))
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).lowercased()
            fields.append((name, Self.trimmingSpaces(String(line[line.index(after: colon)...]))))
        }
    }

    /// Takes one line given as a string (for tests).
    mutating func take(line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { take(line: UnsafeRawBufferPointer($0)) }
    }

    var headers: HTTPHeaders { HTTPHeaders(fields) }

    private static func trimmingSpaces(_ s: String) -> String {
        var s = Substring(s)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
