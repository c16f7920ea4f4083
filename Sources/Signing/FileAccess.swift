import InputLimits

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small file operations for key material, without Foundation.
enum FileAccess {
    /// Writes `text` to `path` with permissions `mode` (the mode is applied before any byte is written,
    /// so a private key is never readable by others, even briefly).
    static func writeFile(_ text: String, to path: String, mode: mode_t) throws(SigningError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SigningError(.openssl, "cannot create \(path): \(errnoText())") }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw SigningError(.openssl, "cannot chmod \(path): \(errnoText())") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SigningError(.openssl, "cannot write \(path): \(errnoText())")
            }
            offset += n
        }
    }

    /// The contents of `path` as text, or nil when it does not exist.
    static func readFile(_ path: String) throws(SigningError) -> String? {
        do { return try BoundedFile.bytesIfPresent(path).map { String(decoding: $0, as: UTF8.self) } } catch {
            throw SigningError(.openssl, error.description)
        }
    }

    /// Creates `path` (and its parents) as directories with `mode` when missing.
    static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws(SigningError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, mode) != 0 && errno != EEXIST {
                throw SigningError(.openssl, "cannot create directory \(prefix): \(errnoText())")
            }
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
