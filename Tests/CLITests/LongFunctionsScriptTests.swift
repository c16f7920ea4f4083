import Foundation
import TestSupport
import Testing

/// scripts/long-functions.py lists Swift functions over a line limit; the engine and the CLI stay under 80
/// lines a function (issue 26), and the script itself is shown to find one that is not.
@Suite struct LongFunctionsScriptTests {
    static let script = TargetCommandTests.repositoryRoot + "/scripts/long-functions.py"

    @Test func noFunctionInTheEngineOrTheCLIIsOver80Lines() async throws {
        let root = TargetCommandTests.repositoryRoot
        let r = try await runProcess(
            "/usr/bin/python3",
            [Self.script, "--max-lines", "80", root + "/Sources/Conformance", root + "/Sources/RingcheckCLI"],
            timeout: 120)
        #expect(r.status == 0, "split these into named parts that each do one job:\n\(r.stdout)\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// An 81-line function is listed (exit 1); an 80-line one is not, nor are braces in text or comments
    /// (counted, the open ones in `text()` would stretch it to the end of the file).
    @Test func listsAFunctionOverTheLimitAndNotBracesInText() async throws {
        let dir = TemporaryDirectory()
        let filler = (0..<78).map { "    _ = \($0)" }.joined(separator: "\n")
        let source = """
            func text() -> [String] {
                // a comment's { counts for nothing
                ["${", "{", #"{"#, "\\("{")", \"""
                {{
                \"""]
            }

            func eightyOne() {
            \(filler)
                _ = 78
            }

            func eighty() {
            \(filler)
            }

            """
        try source.write(toFile: dir.file("Sample.swift"), atomically: true, encoding: .utf8)
        let r = try await runProcess("/usr/bin/python3", [Self.script, "--max-lines", "80", dir.path], timeout: 120)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "\(dir.file("Sample.swift")):8: eightyOne is 81 lines (max 80)\n", "\(r.stdout)")
    }

    @Test func aMissingFolderIsAUsageError() async throws {
        let r = try await runProcess("/usr/bin/python3", [Self.script, "/nonexistent/Sources"], timeout: 120)
        #expect(r.status == 2)
        #expect(r.stderr.contains("no such file or folder: /nonexistent/Sources"), "\(r.stderr)")
    }
}
