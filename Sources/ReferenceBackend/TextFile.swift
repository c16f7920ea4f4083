#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole (small) files: keys, service accounts, users files.
enum TextFile {
    struct ReadError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The file's bytes; the error names the path and the reason.
    static func bytes(_ path: String) throws(ReadError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw ReadError(description: "\(path): cannot open (\(String(cString: strerror(errno))))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes
    }

    /// The file as UTF-8 text.
    static func read(_ path: String) throws(ReadError) -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }
}
