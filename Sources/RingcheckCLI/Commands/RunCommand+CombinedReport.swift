import Foundation
import Reports

extension RunCommand {
    /// `--profile all`: joins the profiles' runs into one JUnit file (a testsuite per profile) and one
    /// summary.md (a row per profile, each profile's "What failed") in the report directory, beside the
    /// directories each profile wrote its own reports to. Each profile's result is read back from the
    /// report.json it wrote; a profile without one (a configuration error, `--format` without `json`)
    /// shows its exit code. Returns the paths written.
    @discardableResult
    func writeCombinedReports(_ verdicts: [(name: String, code: ExitCode)], worst: ExitCode) -> [String] {
        let runs = verdicts.map { v in
            let dir = reportDir + "/" + v.name
            let data = try? Data(contentsOf: URL(fileURLWithPath: dir + "/report.json"))
            return ProfileRun(
                profile: v.name, exitCode: v.code.rawValue, result: data.flatMap { try? JSONReport.decode($0) },
                reportDir: dir)
        }
        var files: [(name: String, text: String)] = []
        if formats.contains(.junit) { files.append(("junit.xml", CombinedReport.junit(runs))) }
        if formats.contains(.markdown) {
            files.append(("summary.md", CombinedReport.markdown(runs, exitCode: worst.rawValue)))
        }
        var written: [String] = []
        for file in files {
            let path = reportDir + "/" + file.name
            do {
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                written.append(path)
            } catch {
                Console.error("ringcheck run --profile all: cannot write \(path): \(error)")
            }
        }
        return written
    }
}
