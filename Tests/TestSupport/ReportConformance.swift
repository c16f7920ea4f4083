import Foundation
import JSON

/// What every report the tests see must satisfy: `report.json` against `suites/report.schema.json` plus the
/// rules of `suites/REPORT-SCHEMA.md` a JSON Schema cannot say (counts are per requirement, every failure
/// names a catalogue requirement, the summary matches the scenarios), and `junit.xml` against
/// `Tests/Schemas/junit-10.xsd`. `RingcheckBinary.run` checks the report directory of every `run` and
/// `report merge` it runs; tests that render reports in-process call these directly.
public enum ReportConformance {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    public static let schemaPath = repository.appendingPathComponent("suites/report.schema.json").path
    public static let junitSchemaPath = repository.appendingPathComponent("Tests/Schemas/junit-10.xsd").path

    /// Why the JSON report `text` does not conform; empty when it does.
    public static func jsonViolations(_ text: String) -> [String] {
        let report: JSONValue
        do { report = try JSONValue.parse(text) } catch { return ["not JSON: \(error)"] }
        do {
            return try JSONSchemaValidator(file: schemaPath).violations(of: report) + invariantViolations(report)
        } catch { return ["cannot read \(schemaPath): \(error)"] }
    }

    /// Why the JUnit XML `text` does not conform; empty when it does.
    public static func junitViolations(_ text: String) -> [String] {
        do { return try XSDChecker(file: junitSchemaPath).violations(of: text) } catch {
            return ["cannot read \(junitSchemaPath): \(error)"]
        }
    }

    /// The rules across fields.
    static func invariantViolations(_ report: JSONValue) -> [String] {
        var out: [String] = []
        let scenarios = report["scenarios"]?.arrayValue ?? []
        let catalogue = Set((report["requirements"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        var failed: [String: Set<String>] = ["MUST": [], "SHOULD": []]
        var statuses: [String: Int] = [:]
        var warnings = 0
        let strict = report["strict"] == .bool(true)
        for s in scenarios {
            let status = s["status"]?.stringValue ?? ""
            statuses[status, default: 0] += 1
            let levels = (s["failures"]?.arrayValue ?? []).map { $0["level"]?.stringValue }
            if (status == "fail" || status == "flaky") && !strict && !levels.isEmpty
                && levels.allSatisfy({ $0 == "SHOULD" })
            {
                warnings += 1
            }
            for f in s["failures"]?.arrayValue ?? [] {
                let id = f["requirement"]?.stringValue ?? ""
                if !catalogue.contains(id) {
                    out.append("\(s["id"]?.stringValue ?? "?"): failure names '\(id)', not a catalogue requirement")
                }
                if status == "fail" || status == "flaky", let level = f["level"]?.stringValue {
                    failed[level]?.insert(id)
                }
            }
        }
        let summary = report["summary"]
        func expect(_ key: String, _ value: Int) {
            if let got = summary?[key]?.intValue, got != value {
                out.append("summary.\(key) is \(got), but the report holds \(value)")
            }
        }
        expect("mustFailures", failed["MUST"]!.count)
        expect("shouldFailures", failed["SHOULD"]!.count)
        expect("scenarios", scenarios.count)
        expect("notRun", report["notRun"]?.arrayValue?.count ?? 0)
        for status in ["pass", "fail", "flaky", "notApplicable", "error", "timeout"] {
            expect(status, statuses[status, default: 0])
        }
        expect("warning", warnings)
        return out + exitCodeViolations(report)
    }

    /// The exit code is the verdict's (0, 1, 3) or an interruption's (128 + signal), and what ringcheck
    /// exits with; a merge has no interruption of its own, and one that lacks a shard is not conformant.
    static func exitCodeViolations(_ report: JSONValue) -> [String] {
        var out: [String] = []
        let verdict = report["verdict"]?.stringValue ?? ""
        let codes = ["conformant": 0, "nonConformant": 1, "inconclusive": 3]
        let expected = report["interrupted"]?["exitCode"]?.intValue ?? codes[verdict]
        if let got = report["exitCode"]?.intValue, got != expected {
            out.append("exitCode is \(got), but the verdict \(verdict) exits \(expected.map(String.init) ?? "?")")
        }
        if let merged = report["merged"] {
            if report["interrupted"] != nil { out.append("a merged report carries 'interrupted' of its own") }
            let incomplete =
                !(merged["missingShards"]?.arrayValue ?? []).isEmpty
                || !(merged["interrupted"]?.arrayValue ?? []).isEmpty
            if incomplete && verdict == "conformant" { out.append("a merge that lacks a shard is conformant") }
        }
        if report["aborted"] != nil && verdict == "conformant" { out.append("an aborted run is conformant") }
        return out
    }

    /// Checks `report.json` and `junit.xml` in `directory` and in its immediate subfolders (`--profile all`);
    /// throws naming every violation. Folders without reports pass.
    public static func checkDirectory(_ directory: String) throws {
        var dirs = [directory]
        let fm = FileManager.default
        for sub in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: directory + "/" + sub, isDirectory: &isDir), isDir.boolValue {
                dirs.append(directory + "/" + sub)
            }
        }
        var problems: [String] = []
        for dir in dirs {
            if let text = try? String(contentsOfFile: dir + "/report.json", encoding: .utf8) {
                problems += jsonViolations(text).map { "\(dir)/report.json: \($0)" }
            }
            if let text = try? String(contentsOfFile: dir + "/junit.xml", encoding: .utf8) {
                problems += junitViolations(text).map { "\(dir)/junit.xml: \($0)" }
            }
        }
        if !problems.isEmpty { throw ReportConformanceError(problems: problems) }
    }

    /// The `--report-dir` of a `ringcheck run` or `ringcheck report merge` command line, if given.
    public static func reportDirectory(of arguments: [String]) -> String? {
        guard arguments.first == "run" || arguments.prefix(2) == ["report", "merge"] else { return nil }
        for (i, a) in arguments.enumerated() {
            if a == "--report-dir", i + 1 < arguments.count { return arguments[i + 1] }
            if a.hasPrefix("--report-dir=") { return String(a.dropFirst("--report-dir=".count)) }
        }
        return nil
    }
}

/// Reports that break their schema, one line each.
public struct ReportConformanceError: Error, CustomStringConvertible {
    public var problems: [String]
    public var description: String {
        "reports do not match their schemas:\n" + problems.prefix(40).joined(separator: "\n")
    }
}
