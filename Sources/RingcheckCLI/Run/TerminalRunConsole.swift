import Conformance
import Reports

/// The run's console on this process's standard output and error: what `RunSession` prints goes
/// through `Console`, and its progress is a `LiveStatus` (the live status line only on a terminal and
/// without `-q`, redrawn every 200 ms).
struct TerminalRunConsole: RunConsole {
    /// Whether the live status line is drawn (standard output is a terminal and `-q` is not given).
    let live: Bool
    let style = ConsoleStyle.forStandardOutput()

    func out(_ text: String) { Console.out(text) }
    func error(_ text: String) { Console.error(text) }
    func progress(total: Int) -> any RunProgress { LiveProgress(LiveStatus(live: live, total: total)) }
}

/// A `LiveStatus` with the task that redraws it while scenarios run.
final class LiveProgress: RunProgress {
    let status: LiveStatus
    private let ticker: Task<Void, Never>?

    init(_ status: LiveStatus) {
        self.status = status
        ticker = status.live ? Task { await status.tickEvery(.milliseconds(200)) } : nil
    }

    func started(_ id: String) { status.started(id) }
    func finished(_ id: String, line: String) { status.finished(id, line: line) }
    func stop() {
        ticker?.cancel()
        status.stop()
    }
}
