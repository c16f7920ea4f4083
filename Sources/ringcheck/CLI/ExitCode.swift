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
    /// `ringcheck call`: the callee's side declined the call (or was busy) while it rang.
    case callDeclined = 10
    /// `ringcheck call`: nobody answered (the ring timed out, or the caller gave up).
    case callUnanswered = 11
    /// `ringcheck call`: the caller cancelled the call while it rang (`--cancel-after`, Ctrl-C).
    case callCancelled = 12
    /// `ringcheck serve-reference`: another process listens on the port it was told to use.
    case portInUse = 13
}
