import Foundation
import InputLimits
import PushMocks
import TestSupport
import Testing

/// Every file ringcheck reads has one size limit (`BoundedFile.maxBytes`, the suite loader's): a
/// device such as /dev/zero or a file over the limit is exit 2 naming the file and the limit, after
/// reading at most one byte more than the limit (so memory cannot grow with the file).
@Suite struct BoundedFileReadTests {
    /// A sparse file one byte over the limit (no disk blocks written).
    static func oversized(_ dir: TemporaryDirectory, _ name: String) throws -> String {
        let path = dir.file(name)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(BoundedFile.maxBytes + 1))
        try handle.close()
        return path
    }

    /// The command lines that read `path` as a file the user named.
    static func entryPoints(_ path: String, _ dir: TemporaryDirectory) -> [[String]] {
        [
            ["serve-reference", "--port", "0", "--users", path],
            ["run", "--target", path, "--report-dir", dir.file("run-reports")],
            ["call", "--target", path, "--to", "b"],
            ["load", "--target", path, "--report-dir", dir.file("load-reports")],
            ["check-payload", path],
            ["report", "merge", path, "--report-dir", dir.file("merged")],
        ]
    }

    @Test(arguments: ["/dev/zero", "oversized"])
    func aHugeFileIsExitTwoNamingTheFileAndTheLimit(_ which: String) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-bounded")
        let path = which == "oversized" ? try Self.oversized(dir, "big.json") : which
        for args in Self.entryPoints(path, dir) {
            let r = try await RingcheckBinary.run(args, timeout: 120)
            #expect(r.status == 2, "\(args): exit \(r.status)\n\(r.stderr)\(r.stdout)")
            let output = r.stderr + r.stdout
            #expect(output.contains(path), "\(args) does not name the file: \(output)")
            #expect(
                output.contains("4 MiB") || output.contains("4.0 MiB"), "\(args) does not name the limit: \(output)")
        }
    }

    @Test func aHugeProviderKeyFileStopsTheReferenceWithExitTwo() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        for file in ["RINGCHECK_APNS_KEY_FILE", "RINGCHECK_FCM_SERVICE_ACCOUNT", "RINGCHECK_CA_FILE"] {
            var env = ProcessInfo.processInfo.environment.merging(mocks.settings.environmentDictionary) { $1 }
            env[file] = "/dev/zero"
            let r = try await RingcheckBinary.run(["serve-reference", "--port", "0"], timeout: 120, environment: env)
            #expect(r.status == 2, "\(file): exit \(r.status)\n\(r.stderr)")
            #expect(r.stderr.contains("/dev/zero") && r.stderr.contains("4 MiB"), "\(file): \(r.stderr)")
        }
    }

    @Test func aHugeStandardInputIsRefusedByCheckPayload() async throws {
        let r = try await runProcess(
            RingcheckBinary.path, ["check-payload", "-"],
            input: [UInt8](repeating: 0x20, count: BoundedFile.maxBytes + 10),
            timeout: 120)
        #expect(r.status == 2, "exit \(r.status)\n\(r.stderr)")
        #expect(r.stderr.contains("4 MiB"), "\(r.stderr)")
    }

    @Test func aFileAtTheLimitIsRead() throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-bounded")
        let path = dir.file("exact")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: BoundedFile.maxBytes)))
        #expect(try BoundedFile.bytes(path).count == BoundedFile.maxBytes)
        #expect(throws: BoundedFile.ReadError.self) { try BoundedFile.bytes("/dev/zero") }
        #expect(try BoundedFile.bytesIfPresent(dir.file("absent")) == nil)
    }
}
