import Conformance
import JSON
import PushMocks
import Reports
import Synchronization

/// The history of a onesignal load run, kept per operation and judged as each settles: the mocks hand it every
/// capture (`file`), attributed by content (`OneSignalAttribution`, among the operations still open and the latest
/// judged ones, never by time); an operation is judged `lingerMs` after its answer (so a second request still has
/// time to arrive) by the profile's rules (`OneSignalInvariants`) and the one-request count, and then dropped. A
/// request that comes for an operation already judged is a second request (`one-request`).
final class OneSignalLoadJudge: Sendable {
    /// One operation of the run: what it sent, what answered it, and when it was over.
    struct Entry {
        var index: Int
        var operation: OneSignalOperation
        /// `operation #12 voipPush to 5f2c…`: how a finding names it.
        var name: String
        /// Its marker (`data.ringcheckRun`, a broadcast's title): the finding's `callId`.
        var marker: String
        var requests: [OneSignalRequest] = []
        var closedAt: ContinuousClock.Instant?
        /// Whether its `delivered` cannot be judged (a request fitting it and another alike).
        var unsure = false
    }

    struct Findings {
        var history: [LoadViolation] = []
        var requests = 0
        var delivered = 0
        /// From the operation's request to the kit to its request's arrival at the mock OneSignal.
        var latency = LatencyHistogram()
        /// Requests no operation explains, or that fit two alike (at most 20, for the report's problems).
        var notes: [String] = []
    }

    struct State {
        var open: [Int: Entry] = [:]
        /// The latest judged operations, oldest first (at most `recentLimit`): a request for one of them is late.
        var recent: [Entry] = []
        var findings = Findings()
    }

    /// How many judged operations stay attributable to a late request.
    static let recentLimit = 500

    let state = Mutex(State())
    let standard: OneSignalApp
    let voip: OneSignalApp
    let levels: [String: RequirementLevel]
    let lingerMs: Int64
    /// Told of each operation once judged (to unsubscribe its audience).
    let judged: @Sendable (Entry) -> Void

    init(
        standard: OneSignalApp, voip: OneSignalApp, levels: [String: RequirementLevel], lingerMs: Int64,
        judged: @escaping @Sendable (Entry) -> Void = { _ in }
    ) {
        self.standard = standard
        self.voip = voip
        self.levels = levels
        self.lingerMs = lingerMs
        self.judged = judged
    }

    // MARK: Recording

    /// The operation is about to be sent: its requests are attributed to it from now on.
    func open(_ entry: Entry) { state.withLock { $0.open[entry.index] = entry } }

    /// The kit answered `delivered` (nil: no answer, or none that can be read); it is judged once `lingerMs` passed.
    func close(_ index: Int, delivered: Bool?, answeredAtMs: Int64) {
        state.withLock {
            $0.open[index]?.operation.delivered = delivered
            $0.open[index]?.operation.answeredAtMs = answeredAtMs
            $0.open[index]?.closedAt = .now
        }
    }

    /// A capture from the mocks: a OneSignal request is filed under the operation it answers; one for an operation
    /// judged already is judged at once as a second request.
    func file(_ c: Capture) {
        guard c.mock == .onesignal else { return }
        file(OneSignalRequest(c))
    }

    /// A OneSignal request, filed as `file(_:)` files its capture.
    func file(_ r: OneSignalRequest) {
        state.withLock { s in
            var note: String?
            s.findings.requests += 1
            let candidates = s.open.values.sorted { $0.index < $1.index } + s.recent
            switch Self.attribute(r, candidates, standard: standard, voip: voip) {
            case .request(let i):
                let entry = candidates[i]
                s.findings.latency.add(Double(max(0, r.arrivalMs - entry.operation.sentAtMs)))
                if s.open[entry.index] != nil {
                    s.open[entry.index]!.requests.append(r)
                } else {
                    s.findings.history += late(r, entry)
                }
            case .unattributed(let all):
                for i in all { s.open[candidates[i].index]?.unsure = true }
                note =
                    "OneSignal request #\(r.sequence) fits "
                    + all.map { candidates[$0].name }.joined(separator: " and ")
                    + " alike: judged by no rule"
            case .none:
                note = "OneSignal request #\(r.sequence) answers no operation of the run (or one judged long ago)"
            }
            if let note, s.findings.notes.count < 20 { s.findings.notes.append(note) }
        }
    }

    /// The operation `r` answers among `candidates`, by content: those whose marker or External ID the request
    /// names anywhere (when any does), then `OneSignalAttribution` among them.
    static func attribute(_ r: OneSignalRequest, _ candidates: [Entry], standard: OneSignalApp, voip: OneSignalApp)
        -> ContentAttribution
    {
        let strings = ContentCandidates.strings(in: r.body)
        let named = candidates.indices.filter { i in
            strings.contains { s in
                s.contains(candidates[i].marker) || candidates[i].operation.externalId.map { s.contains($0) } ?? false
            }
        }
        let pool = named.isEmpty ? Array(candidates.indices) : named
        switch OneSignalAttribution.of(r, pool.map { candidates[$0].operation }, standard: standard, voip: voip) {
        case .request(let i): return .request(pool[i])
        case .unattributed(let list): return .unattributed(list.map { pool[$0] })
        case .none: return .none
        }
    }

    // MARK: Judging

    /// Judges the operations answered `lingerMs` ago or more (every open one with `all`, at the end of the run).
    func judgeClosed(all: Bool = false) {
        let now = ContinuousClock.now
        var done: [Entry] = []
        state.withLock { s in
            let due = s.open.values.filter { e in
                guard let closed = e.closedAt else { return all }
                return all || now - closed >= .milliseconds(lingerMs)
            }
            for e in due.sorted(by: { $0.index < $1.index }) {
                s.open[e.index] = nil
                s.findings.history += judge(e)
                if e.operation.delivered == true { s.findings.delivered += 1 }
                var light = e
                light.requests = []
                s.recent.append(light)
                done.append(light)
            }
            if s.recent.count > Self.recentLimit { s.recent.removeFirst(s.recent.count - Self.recentLimit) }
        }
        for e in done { judged(e) }
    }

    /// The findings about one operation and the requests filed under it.
    func judge(_ e: Entry) -> [LoadViolation] {
        var out: [LoadViolation] = []
        let op = e.operation
        if !op.unconfigured && e.requests.count != 1 && !e.unsure {
            let charged =
                op.options != nil
                ? OneSignalRequirement.options
                : op.kind == .voipPush ? OneSignalRequirement.voipApp : OneSignalRequirement.standardApp
            let what =
                e.requests.isEmpty
                ? "no OneSignal request reached the mock"
                    + (op.options.map { " (given options \($0.serialized()))" } ?? "")
                : "\(e.requests.count) OneSignal requests (#"
                    + e.requests.map { String($0.sequence) }.joined(separator: ", #") + ")"
            out.append(violation(.oneRequest, charged, e, "one request expected, \(what)"))
        }
        var (violations, _) = OneSignalInvariants.judge(e.requests, operations: [op], standard: standard, voip: voip)
        if e.unsure { violations.removeAll { OneSignalRules.operations.map(\.requirement).contains($0.requirement) } }
        for v in violations {
            out.append(
                violation(
                    Self.rule(of: v.requirement), v.requirement, e,
                    (v.sequence.map { "request #\($0) " } ?? "") + v.message))
        }
        return out
    }

    /// A request for an operation judged already: a second request.
    func late(_ r: OneSignalRequest, _ e: Entry) -> [LoadViolation] {
        guard !e.operation.unconfigured else {
            return [violation(.oneRequest, OneSignalRequirement.unconfigured, e, "request #\(r.sequence) came late")]
        }
        let charged = e.operation.kind == .voipPush ? OneSignalRequirement.voipApp : OneSignalRequirement.standardApp
        return [
            violation(
                .oneRequest, charged, e,
                "one request expected, request #\(r.sequence) came \(r.arrivalMs - e.operation.answeredAtMs) ms after "
                    + "its answer and after its requests were judged")
        ]
    }

    func violation(_ rule: HistoryRule, _ requirement: RequirementID, _ e: Entry, _ message: String)
        -> LoadViolation
    {
        LoadViolation.charge(
            requirement, levels: levels, rule: rule,
            callId: e.marker, message: "\(e.name): \(message)")
    }

    /// The history rule a requirement of the profile's rules falls under.
    static func rule(of requirement: RequirementID) -> HistoryRule {
        typealias R = OneSignalRequirement
        switch requirement {
        case R.unconfigured: return .oneRequest
        case R.standardApp, R.voipApp: return .rightApp
        case R.zeroNotDelivered, R.reachedDelivered: return .deliveredAsAnswered
        default: return .requestMapped
        }
    }

    /// Everything found, the history in the order of `HistoryRule.oneSignal`.
    var findings: Findings {
        state.withLock { s in
            var f = s.findings
            f.history = f.history.ordered(by: HistoryRule.oneSignal)
            return f
        }
    }
}
