import Foundation

/// Escaping shared by the renderers: every string from a scenario, a backend or a push goes
/// through one of these before it reaches a report.
enum ReportText {
    /// Text safe inside XML/HTML content and attribute values. Characters XML 1.0 cannot hold
    /// (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD.
    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF || (0x7F...0x9F).contains(v) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// HTML escaping is XML escaping.
    static func html(_ text: String) -> String { xml(text) }

    /// Text for one Markdown table cell: one line, pipes and markup characters escaped.
    static func markdownCell(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "|": out += "\\|"
            case "\n", "\r": out += " "
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "`", "*", "_", "[", "]": out += "\\\(ch)"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Text inside a fenced Markdown code block: a run of backticks cannot close the fence.
    static func markdownCode(_ text: String) -> String {
        text.replacingOccurrences(of: "```", with: "ˋˋˋ")
    }

    /// `1.234s` or `87ms`.
    static func duration(ms: Double) -> String {
        ms >= 1000 ? String(format: "%.2fs", ms / 1000) : String(format: "%.0fms", ms)
    }

    /// `+1234ms` offsets in timelines.
    static func offset(ms: Double) -> String { String(format: "+%.0fms", ms) }

    /// ISO 8601 with milliseconds, UTC.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = formatter.date(from: text) { return d }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// A last line of defence against secrets in reports: the engine redacts evidence itself, and every
/// renderer also masks credentials that look like credentials.
public enum ReportRedaction {
    /// Masks `authorization` header values, bearer tokens, and JSON members named like secrets.
    public static func apply(_ text: String) -> String {
        var out = text
        let patterns: [(String, String)] = [
            (#"(?im)^(\s*(?:proxy-)?authorization\s*:\s*)(\S+)(?:[ \t]+\S+)?"#, "$1[redacted]"),
            (#"(?i)\b(bearer|basic|key)\s+[A-Za-z0-9._~+/=-]{8,}"#, "$1 [redacted]"),
            (
                #"(?i)("(?:private_?key|privateKey|client_secret|password|secret|access_token|refresh_token|credential|credentials)"\s*:\s*)"(?:[^"\\]|\\.)*""#,
                "$1\"[redacted]\""
            ),
            (#"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"#, "[redacted private key]"),
        ]
        for (pattern, template) in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            out = regex.stringByReplacingMatches(
                in: out, range: NSRange(out.startIndex..., in: out), withTemplate: template)
        }
        return out
    }
}
