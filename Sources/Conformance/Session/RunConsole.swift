import Reports

/// Where a `RunSession` writes for a person: the header, one line per finished scenario, the summary,
/// the verdict, and its errors. The `ringcheck` CLI writes to standard output and standard error and
/// draws a live status line on a terminal; a test collects the lines.
///
/// ```swift
/// final class CollectingConsole: RunConsole {
///     let lines = Mutex<[String]>([])
///     var style: ConsoleStyle { ConsoleStyle(colors: false) }
///     func out(_ text: String) { lines.withLock { $0.append(text) } }
///     func error(_ text: String) { lines.withLock { $0.append("error: " + text) } }
///     func progress(total: Int) -> any RunProgress { CollectingProgress(console: self) }
/// }
/// ```
public protocol RunConsole: Sendable {
    /// How the console reports paint (colours or not).
    var style: ConsoleStyle { get }
    /// Writes `text` (a line, or lines) for the reader; a missing final newline is added.
    func out(_ text: String)
    /// Writes an error or warning (`ringcheck run: …`); a missing final newline is added.
    func error(_ text: String)
    /// The progress of `total` scenarios about to run (a live status line, or finished lines only).
    func progress(total: Int) -> any RunProgress
}

/// A run's progress as the console shows it: scenarios starting and finishing. `stop` ends it for good
/// (before the summary, or before an interrupted run's message); calling it twice is harmless.
///
/// ```swift
/// struct CollectingProgress: RunProgress {
///     let console: CollectingConsole
///     func started(_ id: String) {}
///     func finished(_ id: String, line: String) { console.out(line) }
///     func stop() {}
/// }
/// ```
public protocol RunProgress: Sendable {
    /// Scenario `id` started.
    func started(_ id: String)
    /// Scenario `id` finished; `line` is its console line (status, ID, time).
    func finished(_ id: String, line: String)
    /// Ends the progress display (erases a live line).
    func stop()
}
