/// Keeps values echoed in error messages short: a 10 MB `name:` must not become a 10 MB message (nor a
/// 100,000-character scenario ID on the command line).
public enum DiagnosticText {
    /// Characters of a value a message shows before cutting it.
    public static let valueLimit = 80
    /// The longest message, whatever it quotes.
    static let messageLimit = 2_000

    /// `value`, or its first `valueLimit` characters followed by `… (N bytes)`.
    public static func short(_ value: some StringProtocol) -> String {
        guard value.utf8.count > valueLimit, value.count > valueLimit else { return String(value) }
        return String(value.prefix(valueLimit)) + "… (\(value.utf8.count) bytes)"
    }

    /// `message` with every quoted value ('…') cut to `valueLimit` characters, and the whole cut to
    /// `messageLimit`: one place that shortens whatever a check chose to quote.
    static func shortened(_ message: String) -> String {
        guard message.utf8.count > valueLimit else { return message }
        var out = ""
        var rest = Substring(message)
        while let open = rest.firstIndex(of: "'") {
            out += rest[...open]
            let inside = rest[rest.index(after: open)...]
            guard let close = inside.firstIndex(of: "'") else {
                rest = inside
                break
            }
            out += short(inside[..<close]) + "'"
            rest = inside[inside.index(after: close)...]
        }
        out += rest
        guard out.utf8.count > messageLimit, out.count > messageLimit else { return out }
        return String(out.prefix(messageLimit)) + "… (\(out.utf8.count) bytes)"
    }
}
