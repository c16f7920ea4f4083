import Foundation

/// Helpers for the Signing tests: hex conversion and running the independent `openssl` command.
public enum SigningTestTools {
    /// Bytes from hex text (whitespace ignored).
    public static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8.filter { !$0.isASCIIWhitespace })
        precondition(digits.count % 2 == 0, "odd hex length")
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Runs `openssl` with `arguments` in `directory`; the result carries status and output.
    public static func openssl(_ arguments: [String], in directory: TemporaryDirectory, input: [UInt8]? = nil)
        throws -> ProcessResult
    {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        // Keep the directory (which deletes itself on deinit) alive until the command has finished.
        return try withExtendedLifetime(directory) {
            try ProcessRunner.run("sh", ["-c", "cd '\(directory.path)' && exec openssl \(quoted)"], input: input)
        }
    }

    /// Runs a shell script in `directory`.
    public static func shell(_ script: String, in directory: TemporaryDirectory, timeout: Double = 30) throws
        -> ProcessResult
    {
        try withExtendedLifetime(directory) {
            try ProcessRunner.run("sh", ["-c", "cd '\(directory.path)' || exit 1\n" + script], timeout: timeout)
        }
    }

    /// True when the `openssl` command is installed.
    public static var hasOpenSSL: Bool { ProcessRunner.available("openssl") }

    // MARK: From async tests

    // The openssl CLI takes tens of milliseconds per run, far more on a loaded machine. A test that waits
    // for it on the cooperative pool (2 threads on a 2-core machine) stalls every server and continuation
    // in the test process meanwhile: from async tests use these, which wait on a thread of their own.

    /// `openssl(_:in:input:)`, waiting off the cooperative pool.
    public static func opensslAsync(_ arguments: [String], in directory: TemporaryDirectory, input: [UInt8]? = nil)
        async throws -> ProcessResult
    {
        try await offPool { try openssl(arguments, in: directory, input: input) }
    }

    /// `shell(_:in:timeout:)`, waiting off the cooperative pool.
    public static func shellAsync(_ script: String, in directory: TemporaryDirectory, timeout: Double = 30)
        async throws -> ProcessResult
    {
        try await offPool { try shell(script, in: directory, timeout: timeout) }
    }

    /// `hasOpenSSL`, checked off the cooperative pool.
    public static func hasOpenSSLAsync() async -> Bool { await processAvailable("openssl") }
}

extension UInt8 {
    fileprivate var isASCIIWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
