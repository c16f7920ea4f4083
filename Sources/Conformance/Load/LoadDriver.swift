import Foundation
import Synchronization

/// Puts a backend under load with a profile's `LoadWorkload`: starts units of work at the plan's rate
/// (or keeps its concurrency) until its duration or count, at most `maxInFlight` at once and an hour in
/// all, while the workload's readers run beside them; reports progress; stops starting units on
/// `interrupt()` (Ctrl-C); samples the backend's CPU and memory when it runs on this machine; and builds
/// the report from the recorder's figures and the workload's findings. It names no profile.
public final class LoadDriver: Sendable {
    let workload: any LoadWorkload
    let plan: LoadPlan
    let watched: WatchedProcess?
    let progress: @Sendable (LoadProgress) -> Void
    let recorder = LoadRecorder()
    let stopReaders = Mutex(false)
    let nextIndex = Mutex(0)
    /// Set by `interrupt()`: no more units start; those in flight finish and the run is judged.
    let interrupted = Mutex(false)

    /// A driver for `workload`; `watched` is the backend's process when it runs on this machine.
    /// `progress` is told how the run goes about twice a second.
    public init(
        workload: any LoadWorkload, plan: LoadPlan, watched: WatchedProcess? = nil,
        progress: @escaping @Sendable (LoadProgress) -> Void = { _ in }
    ) {
        self.workload = workload
        self.plan = plan
        self.watched = watched
        self.progress = progress
    }

    // MARK: Running

    /// Runs the plan and judges what happened.
    public func run() async -> LoadResult {
        defer { workload.shutdown() }
        let startedMs = Self.wallMs()
        let clockStart = ContinuousClock.now
        let sampler = watched.map { ProcessSampler(process: $0) }
        if let failure = await workload.prepare(recorder) {
            return LoadResult.setupFailed(
                failure, profile: workload.profile, target: workload.targetName, plan: plan,
                summary: plan.summary(unit: workload.unit), startedAtMs: startedMs)
        }
        sampler?.start()
        var callsEndedAt = ContinuousClock.now
        await withTaskGroup(of: Void.self) { readers in
            readers.addTask {
                await self.workload.follow(self.recorder, until: { self.stopReaders.withLock { $0 } })
            }
            readers.addTask { await self.reportProgress(from: clockStart) }
            await driveCalls(from: clockStart)
            callsEndedAt = .now
            await workload.settle()
            stopReaders.withLock { $0 = true }
            await readers.waitForAll()
        }
        let found = await workload.finish(recorder)
        let samples = await sampler?.stop() ?? []
        return report(
            found, startedAtMs: startedMs, callSeconds: Self.seconds(callsEndedAt - clockStart),
            totalSeconds: Self.seconds(ContinuousClock.now - clockStart), samples: samples)
    }

    /// The report: the verdict from the findings (a broken MUST is non-conformant; too few units played,
    /// or a history not judged whole, is inconclusive) and the figures.
    func report(
        _ found: LoadFindings, startedAtMs: Int64, callSeconds: Double, totalSeconds: Double, samples: [ProcessSample]
    )
        -> LoadResult
    {
        let s = recorder.snapshot
        var inconclusive: String?
        let unit = workload.unit
        if s.finished == 0 {
            inconclusive = "no \(unit) was " + (unit == "call" ? "placed" : "sent")
        } else if s.failedCalls * 10 > s.started {
            inconclusive = "\(s.failedCalls) of \(s.started) \(unit)s failed: too few were judged"
        } else if let incomplete = found.incomplete {
            inconclusive = incomplete
        }
        let verdict = LoadReport.verdict(
            history: found.history, invariants: found.invariants, inconclusive: inconclusive, strict: plan.strict)
        let report = LoadReport(
            verdict: verdict, exitCode: verdict.exitCode, profile: workload.profile, target: workload.targetName,
            plan: plan.summary(unit: workload.unit), rate: plan.rate, concurrency: plan.concurrency,
            startedAtMs: startedAtMs,
            callSeconds: callSeconds, totalSeconds: totalSeconds, callsStarted: s.started, callsFinished: s.finished,
            callsFailed: s.failedCalls, scripts: s.scripts,
            callsPerSecond: callSeconds > 0 ? Double(s.finished) / callSeconds : 0,
            requests: s.latencies.values.map(\.count).reduce(0, +), transportErrors: s.transportErrors,
            pushes: found.pushes, invitations: found.invitations,
            endpoints: workload.endpoints.compactMap {
                LatencyFigures(name: $0, histogram: s.latencies[$0] ?? LatencyHistogram())
            },
            pushLatency: found.pushLatency,
            resources: watched.flatMap { ResourceFigures(process: $0, samples: samples) },
            historyViolations: found.history, invariantViolations: found.invariants, problems: s.problems,
            inconclusiveReason: inconclusive)
        return LoadResult(report: report)
    }

    /// Starts calls at the plan's rate (or keeps its concurrency) until its duration or count is reached.
    func driveCalls(from start: ContinuousClock.Instant) async {
        let stopAt = plan.durationSeconds.map { start + .milliseconds(Int64($0 * 1000)) }
        let hardStop = start + .milliseconds(Int64(plan.hardLimitSeconds * 1000))
        @Sendable func mayStart(_ index: Int) -> Bool {
            let now = ContinuousClock.now
            return (plan.calls.map { index < $0 } ?? true) && (stopAt.map { now < $0 } ?? true) && now < hardStop
                && !self.interrupted.withLock { $0 }
        }
        // A discarding group frees each call's task as it finishes: a plain task group keeps every finished
        // child until its result is awaited, and the loop below never awaits one (about 11 KB of task
        // memory per call, held to the end of the run).
        await withDiscardingTaskGroup { group in
            if let concurrency = plan.concurrency {
                for _ in 0..<concurrency {
                    group.addTask {
                        while true {
                            let index = self.nextIndex.withLock { i -> Int in
                                defer { i += 1 }
                                return i
                            }
                            guard mayStart(index) else { return }
                            await self.workload.run(index, self.recorder)
                        }
                    }
                }
                return
            }
            let interval = 1 / (plan.rate ?? 4)
            var index = 0
            while mayStart(index) {
                let due = start + .milliseconds(Int64(Double(index) * interval * 1000))
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
                // Past the in-flight bound the driver waits: the rate reached then says the backend is behind.
                while inFlight >= plan.maxInFlight && ContinuousClock.now < hardStop {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                guard mayStart(index) else { break }
                let i = index
                group.addTask { await self.workload.run(i, self.recorder) }
                index += 1
            }
        }
    }

    /// Stops starting calls (Ctrl-C): the calls in flight finish, and the run is judged as far as it went.
    public func interrupt() {
        let first = interrupted.withLock { was in
            defer { was = true }
            return !was
        }
        if first { recorder.problem("interrupted: no more \(workload.unit)s were started") }
    }

    var inFlight: Int { recorder.inFlight }

    /// Reports progress until the readers are told to stop.
    func reportProgress(from start: ContinuousClock.Instant) async {
        while !stopReaders.withLock({ $0 }) {
            let s = recorder.state.withLock { (started: $0.started, finished: $0.finished, failed: $0.failedCalls) }
            progress(
                LoadProgress(
                    unit: workload.unit, started: s.started, finished: s.finished, failed: s.failed,
                    elapsedSeconds: Self.seconds(ContinuousClock.now - start), plannedCalls: plan.calls,
                    plannedSeconds: plan.durationSeconds))
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    // MARK: Helpers

    public static func wallMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    public static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// The backend's process, when it runs on this machine, and how reports name it.
public struct WatchedProcess: Sendable, Equatable {
    public var pid: Int32
    /// `reference backend (child process)`, `ringcheck itself (embedded reference in process, with the mocks and the driver)`.
    public var label: String

    /// Creates a value from its parts.
    public init(pid: Int32, label: String) {
        self.pid = pid
        self.label = label
    }
}

/// How far a load run is, for a progress line.
public struct LoadProgress: Sendable, Equatable {
    /// What is started: `call`, `webhook`.
    public var unit = "call"
    public var started: Int
    public var finished: Int
    public var failed: Int
    public var elapsedSeconds: Double
    public var plannedCalls: Int?
    public var plannedSeconds: Double?

    /// `12.0 s  calls 48 started, 40 done (2 failed), 8 in flight, 3.3 calls/s` (for the unit `call`).
    public var line: String {
        var text = String(format: "%.1f s", elapsedSeconds)
        if let plannedSeconds { text += String(format: "/%.0f s", plannedSeconds) }
        text += "  \(unit)s \(started)" + (plannedCalls.map { "/\($0)" } ?? "") + " started, \(finished) done"
        if failed > 0 { text += " (\(failed) failed)" }
        text += ", \(started - finished) in flight"
        if elapsedSeconds > 0 { text += String(format: ", %.1f \(unit)s/s", Double(finished) / elapsedSeconds) }
        return text
    }
}
