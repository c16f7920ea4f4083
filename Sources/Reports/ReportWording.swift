import Foundation

/// The words reports use for what the engine recorded, so a reader needs no knowledge of ringcheck's
/// insides: a check names the scenario step ("step 3") rather than its place in the suite file
/// (`scenarios[3].steps[2]`), a rule reads as a rule ("must be: "0"") above the actual value, and a
/// Unix time in an actual value is shown as a date with its distance from the run.
///
///     ReportWording.check("invariant headers.apns-expiration on every push and event")
///     // "headers.apns-expiration, checked on every push and event"
enum ReportWording {
    // MARK: Checks

    /// The check in plain words: suite-file positions become step numbers and an invariant says what it is.
    static func check(_ text: String) -> String {
        var out = replacing(#"scenarios\[[0-9]+\]\.steps\[([0-9]+)\]"#, in: text) { "step \(Int($0[1])! + 1)" }
        out = replacing(#"(?<![A-Za-z0-9_.])steps\[([0-9]+)\]"#, in: out) { "step \(Int($0[1])! + 1)" }
        out = replacing(#"^invariant(?: (\S+))? on every (.+)$"#, in: out) { groups in
            groups[1].isEmpty ? "a rule checked on every \(groups[2])" : "\(groups[1]), checked on every \(groups[2])"
        }
        return out
    }

    // MARK: Rules

    /// What the check wanted as a rule of the failure's level: the label (`must be:`, `should have:`,
    /// `must hold:`) and the text after it.
    static func rule(_ level: RequirementLevel, expected: String) -> (label: String, text: String) {
        let verb = level == .must ? "must" : "should"
        if expected == "every matcher holds" {
            return ("\(verb) match:", "every field the scenario expects (the lines below are those that did not)")
        }
        let lower = expected.lowercased()
        if [" is ", " are ", " holds", " was "].contains(where: lower.contains) {
            return ("\(verb) hold:", expected)
        }
        if lower.hasPrefix("no ") || lower.hasPrefix("every ") { return ("\(verb) have:", expected) }
        return ("\(verb) be:", expected)
    }

    /// The label a requirement's catalogue sentence stands under in a failure, in RFC 2119's words for its
    /// level: `required:` for a MUST, `recommended:` for a SHOULD. The catalogue states each requirement
    /// as the behaviour a conforming backend shows ("The apns-expiration header is 0, …"); under this label
    /// it reads as the rule the backend broke, not as a fact the actual value below contradicts.
    ///
    ///     ReportWording.ruleLabel(.must)  // "required:"
    static func ruleLabel(_ level: RequirementLevel) -> String {
        level == .must ? "required:" : "recommended:"
    }

    // MARK: Times

    /// How far from the run a number may lie to be read as a time: ten years either way, so a duration
    /// or a count of ten digits (`2592000019` ms is 30 days, not a date in 2052) is left alone.
    static let timeWindowSeconds: Double = 10 * 365.25 * 86400

    /// `text` with each ten-digit Unix time in seconds and thirteen-digit one in milliseconds (within
    /// `timeWindowSeconds` of `now`) followed by its date and its distance from `now` (the end of the run): `"1796607735" (2026-12-07 10:15:35 UTC,
    /// 10 h after the run ended)`. Digits inside a longer word or number (a token, an ID) are left alone.
    static func withDates(_ text: String, now: Date) -> String {
        // A quoted number (`"1796607735"`, a header value) gets its date after the closing quote.
        replacing(#"(?<![0-9A-Za-z_.-])("?)([0-9]{13}|[0-9]{10})(\1)(?![0-9A-Za-z_]|\.[0-9])"#, in: text) { groups in
            let digits = groups[2]
            guard let value = Int64(digits) else { return groups[0] }
            let seconds = digits.count == 13 ? Double(value) / 1000 : Double(value)
            guard abs(seconds - now.timeIntervalSince1970) <= timeWindowSeconds else { return groups[0] }
            let date = Date(timeIntervalSince1970: seconds)
            return "\(groups[0]) (\(dateText(date)), \(distance(date, from: now)))"
        }
    }

    /// `2026-12-07 10:15:35 UTC`.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    /// `10 h after the run ended`, `3 min before the run ended`, `as the run ended`.
    static func distance(_ date: Date, from now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = Int(abs(seconds).rounded())
        guard magnitude >= 1 else { return "as the run ended" }
        let amount: String
        switch magnitude {
        case ..<60: amount = "\(magnitude) s"
        case ..<3600: amount = "\(magnitude / 60) min"
        case ..<(2 * 86400):
            let minutes = (magnitude % 3600) / 60
            amount = "\(magnitude / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
        default: amount = "\(magnitude / 86400) days"
        }
        return amount + (seconds > 0 ? " after the run ended" : " before the run ended")
    }

    // MARK: Matching

    /// `text` with each match of `pattern` replaced by `transform(groups)`, where `groups[0]` is the whole
    /// match and an unmatched group is empty.
    static func replacing(_ pattern: String, in text: String, _ transform: ([String]) -> String) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        let ns = text as NSString
        var out = ""
        var last = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            out += ns.substring(with: NSRange(location: last, length: match.range.location - last))
            let groups = (0..<match.numberOfRanges).map { i in
                match.range(at: i).location == NSNotFound ? "" : ns.substring(with: match.range(at: i))
            }
            out += transform(groups)
            last = match.range.location + match.range.length
        }
        return out + ns.substring(from: last)
    }
}
