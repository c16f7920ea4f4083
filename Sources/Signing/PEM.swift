/// PEM armour.
enum PEM {
    /// `der` as base64 in 64-character lines between BEGIN/END lines for `label`.
    static func encode(_ der: [UInt8], label: String, trailingNewline: Bool = true) -> String {
        let body = Array(Base64.encode(der).utf8)
        var lines: [String] = ["-----BEGIN \(label)-----"]
        var i = 0
        while i < body.count {
            lines.append(String(decoding: body[i..<min(i + 64, body.count)], as: UTF8.self))
            i += 64
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")
    }
}
