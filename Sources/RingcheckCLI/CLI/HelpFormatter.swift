/// Renders `--help` text from a command's configuration.
enum HelpFormatter {
    static func help(for config: CommandConfiguration) -> String {
        var out = "OVERVIEW: \(config.abstract)\n"
        if !config.discussion.isEmpty { out += "\n" + config.discussion + "\n" }
        out += "\nUSAGE: " + usage(for: config) + "\n"
        if !config.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in config.arguments { out += row("<\(a.name)>" + (a.repeating ? " ..." : ""), a.help) }
        }
        out += "\nOPTIONS:\n"
        for o in config.options {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name)"
            if let v = o.valueName { left += o.optionalValue ? " [<\(v)>]" : " <\(v)>" }
            var text = o.help
            if let d = o.defaultDescription { text += " (default: \(d))" }
            if o.repeatable { text += " Repeatable." }
            out += row(left, text)
        }
        out += row("-h, --help", "Show help information.")
        if !config.examples.isEmpty {
            out += "\nEXAMPLES:\n"
            for e in config.examples { out += "  \(e)\n" }
        }
        return out
    }

    static func usage(for config: CommandConfiguration) -> String {
        var parts = ["ringcheck", config.name].filter { !$0.isEmpty }
        for a in config.arguments {
            let name = "<\(a.name)>" + (a.repeating ? " ..." : "")
            parts.append(a.optional ? "[\(name)]" : name)
        }
        if !config.options.isEmpty { parts.append("[<options>]") }
        return parts.joined(separator: " ")
    }

    /// One help row: the left column padded to 28 characters, the text wrapped at 100 columns.
    static func row(_ left: String, _ text: String) -> String {
        let indent = 30
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > 100 - indent, !line.isEmpty {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        let pad = String(repeating: " ", count: indent)
        var out = "  " + left
        if left.count + 2 >= indent {
            out += "\n" + pad
        } else {
            out += String(repeating: " ", count: indent - left.count - 2)
        }
        out += lines.joined(separator: "\n" + pad) + "\n"
        return out
    }
}
