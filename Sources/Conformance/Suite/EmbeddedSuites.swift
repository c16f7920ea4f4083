import Foundation
import InputLimits

/// The suites compiled into the binary (`suites/<profile>/` of the source tree, by the EmbedSuites
/// build-tool plugin), so that a copied or installed `ringcheck` needs no files beside it.
///
/// An embedded suite's folder is named `builtin:<name>` (`builtin:callx`), its files
/// `builtin:callx/basic.yaml`: in errors and reports that name says the file is the one built in, not
/// one on disk. `SuiteFiles` reads both kinds of path.
public enum EmbeddedSuites {
    /// What an embedded suite folder's name starts with.
    public static let scheme = "builtin:"

    /// Every embedded file by its path relative to `suites/` (`callx/basic.yaml`).
    static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for file in EmbeddedSuiteFiles.files {
            files[file.path] = Data(base64Encoded: file.base64).map { [UInt8]($0) } ?? []
        }
        return files
    }()

    /// The embedded suites' names (`callx`, `dialstack`, …), sorted: the folders holding a suite.yaml.
    public static var names: [String] {
        files.keys.compactMap { path in
            let parts = path.split(separator: "/")
            return parts.count == 2 && parts[1] == "suite.yaml" ? String(parts[0]) : nil
        }
        .sorted()
    }

    /// `builtin:NAME` when a suite `NAME` is embedded; nil otherwise.
    public static func directory(_ name: String) -> String? {
        names.contains(name) ? scheme + name : nil
    }

    /// Whether `path` names an embedded folder or file.
    public static func isEmbedded(_ path: String) -> Bool { path.hasPrefix(scheme) }

    /// The bytes of embedded file `path` (`builtin:callx/basic.yaml`); nil when there is none.
    static func contents(_ path: String) -> [UInt8]? {
        guard isEmbedded(path) else { return nil }
        return files[String(path.dropFirst(scheme.count))]
    }

    /// The embedded files under folder `directory` (`builtin:callx`), relative to it.
    static func files(in directory: String) -> [String] {
        guard isEmbedded(directory) else { return [] }
        let prefix = String(directory.dropFirst(scheme.count)) + "/"
        return files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

/// Reads a suite's files from disk or, for a `builtin:` path, from `EmbeddedSuites`.
public enum SuiteFiles {
    /// The text of the file at `path` (on disk or built in); nil when there is none or it is not UTF-8.
    public static func text(_ path: String) -> String? {
        guard EmbeddedSuites.isEmbedded(path) else {
            return try? String(validating: BoundedFile.bytes(path), as: UTF8.self)
        }
        return EmbeddedSuites.contents(path).flatMap { String(bytes: $0, encoding: .utf8) }
    }

    /// Parses the YAML file at `path` (named as given in errors).
    static func parse(_ path: String) throws(YAMLError) -> YAMLNode {
        guard EmbeddedSuites.isEmbedded(path) else { return try YAMLDocument.parse(contentsOfFile: path) }
        guard let bytes = EmbeddedSuites.contents(path) else {
            throw YAMLError(file: path, mark: YAMLMark(line: 1, column: 1), message: "no such file is built in")
        }
        return try YAMLDocument.parse(bytes, file: path)
    }

    /// Every file under `directory` (sub-folders included), relative to it.
    static func files(in directory: String) -> [String] {
        if EmbeddedSuites.isEmbedded(directory) { return EmbeddedSuites.files(in: directory) }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let name = enumerator.nextObject() as? String { files.append(name) }
        return files
    }
}
