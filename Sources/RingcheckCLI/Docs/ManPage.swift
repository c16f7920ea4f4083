import Foundation

/// `ringcheck help --man`: the ringcheck(1) man page in roff, generated from the commands' own
/// configurations (their abstracts, discussions and options), so it never drifts from `--help`.
enum ManPage {
    /// Text escaped for roff: backslashes as `\e`, `-` as a real minus, a character beyond ASCII as
    /// `\[uXXXX]` (groff reads its input as Latin-1), a leading `.` or `'` guarded.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// Paragraphs of `text` (blank-line separated), each line escaped.
    static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.trimmingCharacters(in: .whitespaces).isEmpty
                ? ".PP" : escaped(line.trimmingCharacters(in: .whitespaces))
        }.joined(separator: "\n")
    }

    static func render(
        commands: [any RingcheckCommand.Type] = Ringcheck.commands, version: String = RingcheckVersion.current
    ) -> String {
        var out = """
            .TH RINGCHECK 1 "" "ringcheck \(escaped(version))" "User Commands"
            .SH NAME
            ringcheck \\- \(escaped(Ringcheck.abstract))
            .SH SYNOPSIS
            .B ringcheck
            .I command
            .RI [ options ]
            .br
            .B ringcheck
            .B \\-\\-version
            .SH DESCRIPTION
            ringcheck plays the caller and the callee's devices against a backend that wakes mobile apps for
            incoming calls, stands up mock APNs, FCM, Google OAuth and OneSignal endpoints that capture every
            push the backend sends, and judges the backend against its profile's requirements.
            .SH COMMANDS

            """
        for command in commands {
            let config = command.configuration
            out += ".SS \"\(escaped(HelpFormatter.usage(for: config)))\"\n"
            out += escaped(config.abstract) + "\n"
            if !config.discussion.isEmpty { out += ".PP\n" + paragraphs(config.discussion) + "\n" }
            for argument in config.arguments {
                out +=
                    ".TP\n.I \(escaped(argument.name))\(argument.repeating ? " ..." : "")\n\(escaped(argument.help))\n"
            }
            for option in config.options {
                var left = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
                left += "\\fB\\-\\-\(escaped(option.name))\\fR"
                if let value = option.valueName {
                    left += option.optionalValue ? " [\\fI\(escaped(value))\\fR]" : " \\fI\(escaped(value))\\fR"
                }
                var text = option.help
                if let d = option.defaultDescription { text += " (default: \(d))" }
                if option.repeatable { text += " Repeatable." }
                out += ".TP\n\(left)\n\(escaped(text))\n"
            }
            for example in config.examples { out += ".PP\n.nf\n\(escaped(example))\n.fi\n" }
        }
        out += """
            .SH EXIT STATUS

            """
        for (codes, meaning) in ExitCode.documented { out += ".TP\n.B \(escaped(codes))\n\(escaped(meaning))\n" }
        out += """
            .SH SEE ALSO
            .BR h2load (1),
            .BR curl (1)

            """
        return out
    }
}
