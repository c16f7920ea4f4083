import Foundation
import Synchronization

/// The console's progress while a run goes: one permanent line per finished scenario
/// (`[3/43] ✔ pass …`) and, on a terminal only, one status line below them that is redrawn in place
/// (`[12/43] running calls.race-answer (3.1 s) and 2 more …`) with `\r` and erase-line. Off a terminal
/// (CI logs, pipes, files) the status line is never written, so the output is the finished lines alone.
final class LiveStatus: Sendable {
    /// Whether the status line is drawn: standard output is a terminal (decided by the caller).
    let live: Bool
    let total: Int
    private let write: @Sendable (String) -> Void
    private let width: Int
    private let state = Mutex(State())

    private struct State {
        var done = 0
        var running: [(id: String, since: ContinuousClock.Instant)] = []
        /// Whether a status line is on the screen now (and must be erased before the next line).
        var drawn = false
    }

    init(
        live: Bool, total: Int, width: Int = LiveStatus.terminalWidth(),
        write: @escaping @Sendable (String) -> Void = { Console.outAsIs($0) }
    ) {
        self.live = live
        self.total = total
        self.width = max(20, width)
        self.write = write
    }

    /// `\r` and erase the whole line: where the status line was.
    static let erase = "\r\u{1B}[2K"

    /// A scenario started.
    func started(_ id: String) {
        guard live else { return }
        state.withLock { s in
            s.running.append((id, .now))
            draw(&s)
        }
    }

    /// A scenario finished: its line is printed (numbered) above the status line.
    func finished(_ id: String, line: String) {
        state.withLock { s in
            s.done += 1
            s.running.removeAll { $0.id == id }
            var out = s.drawn ? Self.erase : ""
            s.drawn = false
            out += "[\(s.done)/\(total)] " + line + "\n"
            write(out)
            if live { draw(&s) }
        }
    }

    /// Redraws the status line (its elapsed time moves on).
    func tick() {
        guard live else { return }
        state.withLock { draw(&$0) }
    }

    /// Erases the status line for good (before the summary).
    func stop() {
        state.withLock { s in
            if s.drawn { write(Self.erase) }
            s.drawn = false
            s.running = []
        }
    }

    private func draw(_ s: inout State) {
        guard let text = Self.statusText(done: s.done, total: total, running: s.running, now: .now) else {
            if s.drawn { write(Self.erase) }
            s.drawn = false
            return
        }
        write(Self.erase + String(text.prefix(width - 1)))
        s.drawn = true
    }

    /// `[12/43] running calls.race-answer (3.1 s) and 2 more …`: the longest-running scenario; nil when none runs.
    static func statusText(
        done: Int, total: Int, running: [(id: String, since: ContinuousClock.Instant)], now: ContinuousClock.Instant
    ) -> String? {
        guard let oldest = running.min(by: { $0.since < $1.since }) else { return nil }
        let elapsed = now - oldest.since
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let more = running.count > 1 ? " and \(running.count - 1) more" : ""
        let id = ConsoleText.clean(oldest.id)
        return "[\(done)/\(total)] running \(id) (\(String(format: "%.1f", seconds)) s)\(more) …"
    }

    /// The terminal's columns (`COLUMNS`, else 80).
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }

    /// Whether the status line belongs on standard output: it is a terminal that understands `\r` and erase-line.
    static func standardOutputIsLive(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
    }
}

/// Scenario IDs come from suite files: no control characters reach the terminal.
enum ConsoleText {
    static func clean(_ text: String) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : $0 }))
    }
}

extension LiveStatus {
    /// Redraws the status line every `interval` until cancelled (the elapsed seconds move on).
    func tickEvery(_ interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            tick()
        }
    }
}
