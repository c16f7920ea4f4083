import Foundation

/// The report formats of `--format`, and the file each is written to.
public enum ReportFormat: String, Sendable, CaseIterable {
    case console
    case junit
    case json
    case html
    case markdown

    /// The file name under the report directory; nil for the console.
    public var fileName: String? {
        switch self {
        case .console: return nil
        case .junit: return "junit.xml"
        case .json: return "report.json"
        case .html: return "report.html"
        case .markdown: return "summary.md"
        }
    }

    /// The rendered report (the console form without colours).
    public func render(_ result: RunResult) -> String {
        switch self {
        case .console:
            let style = ConsoleStyle(colors: false)
            return result.scenarios.map { ConsoleReport.progressLine($0, style: style, strict: result.strict) }.joined(
                separator: "\n") + "\n"
                + ConsoleReport.summary(result, style: style)
        case .junit: return JUnitReport.render(result)
        case .json: return JSONReport.render(result)
        case .html: return HTMLReport.render(result)
        case .markdown: return MarkdownReport.render(result)
        }
    }

    /// Writes every file format in `formats` to `directory` (created if missing); returns the paths written.
    @discardableResult
    public static func write(_ result: RunResult, formats: [ReportFormat], to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for format in formats {
            guard let name = format.fileName else { continue }
            let path = directory + "/" + name
            try Data(format.render(result).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        return written
    }
}
