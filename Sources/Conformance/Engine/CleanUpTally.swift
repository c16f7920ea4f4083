/// How deleting each scenario's tokens went over a whole run. A clean-up is never judged, but one that
/// fails leaves tokens registered on shared accounts, so later scenarios push to them too: the run
/// warns once, in the console and in every report. A delete answered 404 means the token is gone (the
/// backend may have dropped it itself after a provider called it dead): it counts as cleaned, unless no
/// delete of the run succeeded — then the route itself is in doubt, and the 404s are warned about — or the target
/// says its 404 does not mean gone (`cleanUp: {notFound: failed}`, `notFoundIsCleaned: false`).
///
/// ```swift
/// let tally = CleanUpTally()
/// await tally.recordDelete(failure: nil)
/// await tally.recordDelete(failure: "404")  // gone already: cleaned
/// await CleanUpTally.warnings([tally], route: "DELETE /v1/tokens/{token}", skipReason: nil)  // []
/// ```
public actor CleanUpTally {
    /// Registrations the backend should still have held when their scenario ended.
    private var attempted = 0
    /// Deletes answered 2xx.
    private var succeeded = 0
    /// Failed deletes by their outcome (`404`, `no answer`).
    private var failures: [String: Int] = [:]
    /// Devices left registered because the target declares no way to delete their tokens.
    private var skipped = 0

    public init() {}

    func recordDelete(failure: String?) {
        attempted += 1
        if let failure { failures[failure, default: 0] += 1 } else { succeeded += 1 }
    }

    func recordSkipped(devices: Int) { skipped += devices }

    /// The outcome of a delete whose token the backend no longer had.
    static let notFound = "404"

    /// The run's warnings about its clean-up over `tallies` (a run may have two engines), given the
    /// route deletes went to, why deletes were skipped and whether the target's 404 means the token is gone.
    public static func warnings(
        _ tallies: [CleanUpTally], route: String, skipReason: String?, notFoundIsCleaned: Bool = true
    ) async -> [String] {
        var (attempted, skipped, succeeded) = (0, 0, 0)
        var failures: [String: Int] = [:]
        for t in tallies {
            attempted += await t.attempted
            skipped += await t.skipped
            succeeded += await t.succeeded
            for (k, v) in await t.failures { failures[k, default: 0] += v }
        }
        // Gone already: cleaned, where the route has shown it deletes.
        if succeeded > 0 && notFoundIsCleaned { failures[notFound] = nil }
        var out: [String] = []
        if skipped > 0, let skipReason {
            out.append(
                "token clean-up skipped: \(skipReason), so the tokens of \(skipped) device\(skipped == 1 ? "" : "s") stay registered after their scenarios and later scenarios of the same users push to them too"
            )
        }
        let failed = failures.values.reduce(0, +)
        if failed > 0 {
            let outcomes = failures.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            out.append(
                "token clean-up failed for \(failed) of \(attempted) registration\(attempted == 1 ? "" : "s"): \(route) answered \(outcomes); those tokens stay registered and later scenarios of the same users push to them too (check operations.deleteToken)"
            )
        }
        return out
    }
}
