/// The process exit status, as documented in docs/ARCHITECTURE.md and docs/exit-codes-and-reports.md.
package enum ExitCode: Int32, Sendable {
    /// Conformant: every MUST held (or, for non-judging commands, success).
    case success = 0
    /// Non-conformant: a MUST failed.
    case nonConformant = 1
    /// Usage or configuration error.
    case usage = 2
    /// Inconclusive: the harness could not reach a verdict (e.g. the backend is unreachable).
    case inconclusive = 3
    /// `ringcheck call`: the callee's side declined the call (or was busy) while it rang.
    case callDeclined = 10
    /// `ringcheck call`: nobody answered (the ring timed out, or the caller gave up).
    case callUnanswered = 11
    /// `ringcheck call`: the caller cancelled the call while it rang (`--cancel-after`, Ctrl-C).
    case callCancelled = 12
    /// `ringcheck serve-reference`: another process listens on the port it was told to use.
    case portInUse = 13
    /// Interrupted by Ctrl-C (SIGINT): 128 + 2. (`run` exits with it from its signal handler.)
    case interrupted = 130
    /// Stopped by SIGTERM: 128 + 15.
    case terminated = 143
}

extension ExitCode {
    /// The exit statuses as `--help` and the man page list them: the status (or statuses) and its meaning.
    static let documented: [(codes: String, meaning: String)] = [
        ("0", "conformant (or success)"),
        ("1", "non-conformant: a MUST failed"),
        ("2", "usage or configuration error"),
        ("3", "inconclusive: the harness could not reach a verdict"),
        ("10, 11, 12", "ringcheck call: declined, unanswered, cancelled by the caller"),
        ("13", "ringcheck serve-reference: the port is in use"),
        ("130, 143", "interrupted by Ctrl-C (SIGINT) or SIGTERM; reports of what ran are still written"),
    ]
}
