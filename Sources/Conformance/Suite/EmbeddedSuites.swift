import Foundation
import InputLimits

/// The suites compiled into the binary: each profile module's own (`Profile.embeddedSuite`, compiled from
/// the module's `Suite/` folder by the EmbedSuites build-tool plugin), so that a copied or installed
/// `ringcheck` needs no files beside it, and the engine embeds none.
///
/// An embedded suite's folder is named `builtin:<profile>` (`builtin:callx`), its files
/// `builtin:callx/basic.yaml`: in errors and reports that name says the file is the one built in, not
/// one on disk. `SuiteFiles` reads both kinds of path; a `builtin:` path is looked up in the profiles given.
///
/// ```swift
/// let profiles = ProfileRegistry([CallxProfile(), PagerProfile()])
/// EmbeddedSuites.names(in: profiles)              // ["callx", "pager"]
/// let suite = try Suite.load(directory: "builtin:pager", profiles: profiles)
/// ```
public enum EmbeddedSuites {
    /// What an embedded suite folder's name starts with.
    public static let scheme = "builtin:"

    /// The names of the profiles among `profiles` that embed a suite (one holding a suite.yaml), sorted.
    public static func names(in profiles: ProfileRegistry) -> [String] {
        profiles.all.filter { $0.embeddedSuite.files["suite.yaml"] != nil }.map(\.name).sorted()
    }

    /// `builtin:NAME` when profile `NAME` of `profiles` embeds a suite; nil otherwise.
    public static func directory(_ name: String, in profiles: ProfileRegistry) -> String? {
        names(in: profiles).contains(name) ? scheme + name : nil
    }

    /// Whether `path` names an embedded folder or file.
    public static func isEmbedded(_ path: String) -> Bool { path.hasPrefix(scheme) }

    /// The bytes of embedded file `path` (`builtin:callx/basic.yaml`) of one of `profiles`; nil when there is none.
    static func contents(_ path: String, in profiles: ProfileRegistry) -> [UInt8]? {
        guard isEmbedded(path) else { return nil }
        let rest = path.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return profiles.named(String(rest[..<slash]))?.embeddedSuite.files[String(rest[rest.index(after: slash)...])]
    }

    /// The embedded files under folder `directory` (`builtin:callx`) of one of `profiles`, relative to it.
    static func files(in directory: String, profiles: ProfileRegistry) -> [String] {
        guard isEmbedded(directory) else { return [] }
        let parts = directory.dropFirst(scheme.count).split(separator: "/", maxSplits: 1).map(String.init)
        guard let name = parts.first, let suite = profiles.named(name)?.embeddedSuite else { return [] }
        let prefix = parts.count > 1 ? parts[1] + "/" : ""
        return suite.files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

/// Reads a suite's files from disk or, for a `builtin:` path, from the embedded suite of one of the profiles given.
public enum SuiteFiles {
    /// The text of the file at `path` (on disk, or built into one of `profiles`); nil when there is none or it
    /// is not UTF-8.
    public static func text(_ path: String, profiles: ProfileRegistry) -> String? {
        guard EmbeddedSuites.isEmbedded(path) else {
            return try? String(validating: BoundedFile.bytes(path), as: UTF8.self)
        }
        return EmbeddedSuites.contents(path, in: profiles).flatMap { String(bytes: $0, encoding: .utf8) }
    }

    /// Parses the YAML file at `path` (named as given in errors).
    static func parse(_ path: String, profiles: ProfileRegistry) throws(YAMLError) -> YAMLNode {
        guard EmbeddedSuites.isEmbedded(path) else { return try YAMLDocument.parse(contentsOfFile: path) }
        guard let bytes = EmbeddedSuites.contents(path, in: profiles) else {
            throw YAMLError(file: path, mark: YAMLMark(line: 1, column: 1), message: "no such file is built in")
        }
        return try YAMLDocument.parse(bytes, file: path)
    }

    /// Every file under `directory` (sub-folders included), relative to it.
    static func files(in directory: String, profiles: ProfileRegistry) -> [String] {
        if EmbeddedSuites.isEmbedded(directory) { return EmbeddedSuites.files(in: directory, profiles: profiles) }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let name = enumerator.nextObject() as? String { files.append(name) }
        return files
    }
}
