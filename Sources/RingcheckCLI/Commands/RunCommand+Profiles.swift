import AllProfiles
import Conformance
import Foundation

extension RunCommand {
    /// `--profile all`: every reference kit's profile, its whole suite against its embedded
    /// reference, reports in `<report-dir>/<profile>/` and the combined junit.xml and summary.md in
    /// `<report-dir>` (`writeCombinedReports`); each profile's own verdict line names it (`Verdict (callx): …`),
    /// then one line per profile and the worst exit code.
    func runEveryProfile() async throws -> ExitCode {
        var verdicts: [(name: String, code: ExitCode)] = []
        for kit in ReferenceKits.registered.all {
            let name = kit.name
            var one = self
            one.allProfiles = false
            one.namesProfileInVerdict = true
            one.profileName = name
            one.suitePath = ParsedArguments.resolvedSuite(kit.profile.suiteDirectory)
            one.reportDir = reportDir + "/" + name
            let code: ExitCode
            do { code = try await one.run() } catch let error as ConfigurationError {
                Console.error("ringcheck run --profile all: \(name): \(error.message)")
                code = .usage
            } catch let error as UsageError {
                Console.error("ringcheck run --profile all: \(name): \(error.message)")
                code = .usage
            }
            verdicts.append((name, code))
        }
        let worst = Self.worst(verdicts.map(\.code))
        let combined = writeCombinedReports(verdicts, worst: worst)
        let verdict = "Verdict: \(Self.verdictText(worst)) (exit \(worst.rawValue))"
        if quiet {
            Console.out(verdict)
            return worst
        }
        var out = "\nProfiles:\n"
        for v in verdicts {
            out += "  \(v.name): \(Self.verdictText(v.code)) (exit \(v.code.rawValue)) — \(reportDir)/\(v.name)\n"
        }
        if !combined.isEmpty { out += "Combined reports: \(combined.joined(separator: ", "))\n" }
        out += verdict
        Console.out(out)
        return worst
    }

    /// What an exit code says of a run.
    static func verdictText(_ code: ExitCode) -> String {
        switch code {
        case .success: return "conformant"
        case .nonConformant: return "non-conformant"
        case .usage: return "configuration error"
        default: return "inconclusive"
        }
    }

    /// The worst of several runs' exit codes: a configuration error, then inconclusive, then
    /// non-conformant, then conformant (none: conformant).
    static func worst(_ codes: [ExitCode]) -> ExitCode {
        let order: [ExitCode] = [.success, .nonConformant, .inconclusive, .usage]
        return codes.max { (order.firstIndex(of: $0) ?? 2) < (order.firstIndex(of: $1) ?? 2) } ?? .success
    }
}
