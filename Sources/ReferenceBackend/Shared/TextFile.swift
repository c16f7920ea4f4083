import InputLimits

#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole (small) files: keys, service accounts, users files.
enum TextFile {
    struct ReadError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The file's bytes, at most `BoundedFile.maxBytes`; the error names the path and the reason.
    static func bytes(_ path: String) throws(ReadError) -> [UInt8] {
        do { return try BoundedFile.bytes(path) } catch { throw ReadError(description: error.description) }
    }

    /// The file as UTF-8 text.
    static func read(_ path: String) throws(ReadError) -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }
}
