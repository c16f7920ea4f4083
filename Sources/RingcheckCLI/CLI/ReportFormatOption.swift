import Conformance
import Foundation
import Reports

extension ReportFormat {
    /// The formats of a `--format LIST` (comma-separated, duplicates dropped): an unknown name, or a
    /// list that names none (`--format ''`, `--format ,`), is a usage error of `command` naming the formats.
    static func parseList(_ text: String, command: String) throws(UsageError) -> [ReportFormat] {
        let names = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        var formats: [ReportFormat] = []
        for part in text.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let f = ReportFormat(rawValue: name) else {
                throw UsageError(message: "unknown format '\(Suggestion.shown(name))'; use \(names)", command: command)
            }
            if !formats.contains(f) { formats.append(f) }
        }
        if formats.isEmpty {
            throw UsageError(message: "--format names no format; use one or more of \(names)", command: command)
        }
        return formats
    }
}
