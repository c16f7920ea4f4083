import Foundation
import Synchronization
import Testing

@testable import RingcheckCLI

/// The console's live status line: drawn in place on a terminal, never written anywhere else.
@Suite struct LiveStatusTests {
    /// Everything a `LiveStatus` writes, in order.
    final class Recorder: Sendable {
        let chunks = Mutex<[String]>([])
        var text: String { chunks.withLock { $0.joined() } }
        func write(_ s: String) { chunks.withLock { $0.append(s) } }
    }

    @Test func offATerminalOnlyTheFinishedLinesAreWritten() {
        let out = Recorder()
        let status = LiveStatus(live: false, total: 2, width: 80) { out.write($0) }
        status.started("calls.race-answer")
        status.tick()
        status.finished("calls.race-answer", line: "✔ pass    calls.race-answer  (3.10s)")
        status.started("basic.answer")
        status.finished("basic.answer", line: "✔ pass    basic.answer  (1.00s)")
        status.stop()
        #expect(
            out.text == "[1/2] ✔ pass    calls.race-answer  (3.10s)\n[2/2] ✔ pass    basic.answer  (1.00s)\n")
    }

    @Test func onATerminalOneStatusLineIsRedrawnAndErased() {
        let out = Recorder()
        let status = LiveStatus(live: true, total: 3, width: 80) { out.write($0) }
        status.started("calls.race-answer")
        status.started("basic.answer")
        status.finished("basic.answer", line: "done basic.answer")
        status.stop()
        let chunks = out.chunks.withLock { $0 }
        let erase = "\r\u{1B}[2K"
        #expect(chunks[0].hasPrefix(erase + "[0/3] running calls.race-answer ("))
        #expect(chunks[0].hasSuffix(" s) …"))
        #expect(chunks[1].hasPrefix(erase + "[0/3] running calls.race-answer (") && chunks[1].hasSuffix("and 1 more …"))
        // The finished line replaces the status line, which comes back below it.
        #expect(chunks[2] == erase + "[1/3] done basic.answer\n")
        #expect(chunks[3].hasPrefix(erase + "[1/3] running calls.race-answer ("))
        #expect(chunks.last == erase)
        // Never wider than the terminal: a wrapped line could not be erased with one \r.
        let narrow = Recorder()
        let small = LiveStatus(live: true, total: 1, width: 30) { narrow.write($0) }
        small.started("a-very-long-scenario-identifier.that-goes-on")
        #expect(narrow.text.count <= erase.count + 29)
    }

    @Test func statusTextNamesTheLongestRunningScenario() {
        let now = ContinuousClock.now
        let text = LiveStatus.statusText(
            done: 12, total: 43,
            running: [("basic.answer", now - .milliseconds(500)), ("calls.race-answer", now - .milliseconds(3100))],
            now: now)
        #expect(text == "[12/43] running calls.race-answer (3.1 s) and 1 more …")
        #expect(LiveStatus.statusText(done: 1, total: 2, running: [], now: now) == nil)
        #expect(
            LiveStatus.statusText(done: 0, total: 1, running: [("a\u{1B}[2Jb", now)], now: now)?.contains("\u{1B}")
                == false)
    }

    @Test func aDumbTerminalGetsNoStatusLine() {
        #expect(!LiveStatus.standardOutputIsLive(environment: ["TERM": "dumb"]))
    }
}
