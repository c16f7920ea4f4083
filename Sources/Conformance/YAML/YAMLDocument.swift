import Foundation
import InputLimits

/// Reads one YAML document into a `YAMLNode` tree with positions, from libyaml's event stream.
///
/// Deliberately smaller than YAML: one document per file, scalar keys only, no duplicate keys, no
/// anchors or aliases, and only the core schema's tags. Every refusal is a `YAMLError` naming the
/// file, line and column; malformed input never traps.
public enum YAMLDocument {
    /// How deeply collections may nest before the file is refused.
    public static let maxDepth = 64

    /// The largest file read, in bytes (4 MiB). The shipped suites' files are a few KB and a target
    /// file is smaller still; a file thousands of times larger is a mistake (a log, a dump) that
    /// would only take long to refuse line by line.
    public static let maxBytes = BoundedFile.maxBytes

    /// Parses `bytes`; `file` names the input in errors.
    public static func parse(_ bytes: [UInt8], file: String = "<input>") throws(YAMLError) -> YAMLNode {
        if bytes.count > maxBytes { throw tooLarge(file, bytes: bytes.count) }
        var builder = YAMLTreeBuilder(file: file, maxDepth: maxDepth)
        let parser = YAMLEventParser(bytes: bytes, file: file)
        while true {
            let event = try parser.next()
            if try builder.consume(event) { break }
        }
        return builder.root ?? YAMLNode(.scalar("", .plain), mark: YAMLMark(line: 1, column: 1))
    }

    /// Parses a string.
    public static func parse(_ text: String, file: String = "<input>") throws(YAMLError) -> YAMLNode {
        try parse(Array(text.utf8), file: file)
    }

    /// Reads and parses the file at `path` (named as given in errors).
    /// Files over `maxBytes` are refused before they are parsed; at most `maxBytes + 1` bytes are
    /// ever read, so a huge file (or a device such as /dev/zero) cannot hold the loader up.
    public static func parse(contentsOfFile path: String) throws(YAMLError) -> YAMLNode {
        let bytes: [UInt8]
        do { bytes = try BoundedFile.bytes(path, limit: maxBytes) } catch {
            if case .tooLarge = error.reason {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                throw tooLarge(path, bytes: max(size, maxBytes + 1))
            }
            throw YAMLError(file: path, mark: YAMLMark(line: 1, column: 1), message: error.reasonText)
        }
        return try parse(bytes, file: path)
    }

    private static func tooLarge(_ file: String, bytes: Int) -> YAMLError {
        let mib = { (n: Int) in String(format: "%.1f MiB", Double(n) / 1_048_576) }
        return YAMLError(
            file: file, mark: YAMLMark(line: 1, column: 1),
            message: "the file is \(bytes > maxBytes + 1 ? mib(bytes) : "over \(mib(maxBytes))"); "
                + "ringcheck reads YAML files of at most \(mib(maxBytes)) (is this the right file?)")
    }
}
