import Foundation
import InputLimits
import PushMocks
import TestSupport
import Testing

/// Every file ringcheck reads has a size limit (`BoundedFile.maxBytes`, the suite loader's, for what a
/// user writes; `BoundedFile.maxDataBytes` for reports and captures ringcheck wrote itself): a device
/// such as /dev/zero or a file over the limit is exit 2 naming the file and the limit, after reading at
/// most one byte more than the limit (so memory cannot grow with the file).
@Suite(.heavyTraffic) struct BoundedFileReadTests {
    /// A sparse file one byte over the limit (no disk blocks written).
    static func oversized(_ dir: TemporaryDirectory, _ name: String, limit: Int = BoundedFile.maxBytes) throws
        -> String
    {
        let path = dir.file(name)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(limit + 1))
        try handle.close()
        return path
    }

    /// The command lines that read `path` as a file the user named, with the limit each applies.
    static func entryPoints(_ path: String, _ dir: TemporaryDirectory) -> [(args: [String], limit: Int)] {
        [
            (["serve-reference", "--port", "0", "--users", path], BoundedFile.maxBytes),
            (["run", "--target", path, "--report-dir", dir.file("run-reports")], BoundedFile.maxBytes),
            (["call", "--target", path, "--to", "b"], BoundedFile.maxBytes),
            (["load", "--target", path, "--report-dir", dir.file("load-reports")], BoundedFile.maxBytes),
            (["check-payload", path], BoundedFile.maxDataBytes),
            (["report", "merge", path, "--report-dir", dir.file("merged")], BoundedFile.maxDataBytes),
        ]
    }

    /// Whether `output` names `limit` (`4 MiB`; the YAML loader writes `4.0 MiB`).
    static func namesLimit(_ output: String, _ limit: Int) -> Bool {
        let mib = limit / (1024 * 1024)
        return output.contains("\(mib) MiB") || output.contains("\(mib).0 MiB")
    }

    @Test(arguments: ["/dev/zero", "oversized"])
    func aHugeFileIsExitTwoNamingTheFileAndTheLimit(_ which: String) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-bounded")
        for (args, limit) in Self.entryPoints(which, dir) {
            let path = which == "oversized" ? try Self.oversized(dir, "big-\(limit).json", limit: limit) : which
            let r = try await RingcheckBinary.run(
                args.map { $0 == which ? path : $0 }, timeout: 120)
            #expect(r.status == 2, "\(args): exit \(r.status)\n\(r.stderr)\(r.stdout)")
            let output = r.stderr + r.stdout
            #expect(output.contains(path), "\(args) does not name the file: \(output)")
            #expect(Self.namesLimit(output, limit), "\(args) does not name the limit: \(output)")
        }
    }

    @Test func aReportOverTheUserFileLimitIsMerged() async throws {
        // A report.json of a large run passes 4 MiB: report merge still reads it (it fails on its content
        // here, not on its size).
        let dir = TemporaryDirectory(prefix: "ringcheck-bounded")
        let path = dir.file("report.json")
        try ("{\"pad\": \"" + String(repeating: "x", count: BoundedFile.maxBytes) + "\"}").write(
            toFile: path, atomically: true, encoding: .utf8)
        let r = try await RingcheckBinary.run(["report", "merge", path, "--report-dir", dir.file("merged")])
        #expect(!r.stderr.contains("MiB"), "\(r.stderr)")
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

    @Test func anEndlessStandardInputIsRefusedByCheckPayload() async throws {
        let r = try ProcessRunner.run(
            "/bin/sh", ["-c", "exec \"$0\" check-payload - < /dev/zero", RingcheckBinary.path], timeout: 120)
        #expect(r.status == 2, "exit \(r.status)\n\(r.stderr)")
        #expect(Self.namesLimit(r.stderr, BoundedFile.maxDataBytes), "\(r.stderr)")
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
