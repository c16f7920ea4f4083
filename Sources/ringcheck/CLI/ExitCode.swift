/// The process exit status, as documented in ARCHITECTURE.md and the README.
enum ExitCode: Int32, Sendable {
    /// Conformant: every MUST held (or, for non-judging commands, success).
    case success = 0
    /// Non-conformant: a MUST failed.
    case nonConformant = 1
    /// Usage or configuration error.
    case usage = 2
    /// Inconclusive: the harness could not reach a verdict (e.g. the backend is unreachable).
    case inconclusive = 3
}
