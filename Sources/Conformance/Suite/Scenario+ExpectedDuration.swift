extension Scenario {
    /// How long the scenario waits whatever the backend does, in milliseconds: its observation windows
    /// (`expectNoPush`, `expectNotLogged`), fixed `wait`s, the latency of the faults it plans, and its
    /// profile steps' own waits (Callx's `waitUntilExpiry`: a short ring). `SuiteRunner` starts the
    /// scenarios with the longest estimate first, so that the run's wall time comes close to its
    /// longest scenario instead of that scenario starting last.
    public var expectedDurationMs: Int { Self.expectedWaitMs(steps) }

    private static func expectedWaitMs(_ steps: [ScenarioStep]) -> Int {
        steps.reduce(0) { total, step in
            switch step.step {
            case .expectNoPush(let s): total + s.duration.milliseconds
            case .expectNotLogged(let s): total + s.duration.milliseconds
            case .wait(let d): total + d.milliseconds
            case .fault(let s): total + max(0, s.plan.latencyMs ?? 0)
            // The racing requests leave together: the longest of them, not their sum.
            case .race(let s): total + (s.steps.map { expectedWaitMs([$0]) }.max() ?? 0)
            case .profile(let p): total + p.base.expectedWaitMs + expectedWaitMs(p.base.nestedSteps)
            default: total
            }
        }
    }
}

extension Scenario {
    /// How much longer than the engine's scenario time limit the scenario may run on `target`, in milliseconds: the
    /// extra answer time its profile steps allow (each DialStack webhook may take `webhook.answerTimeout` to be
    /// answered), so a slow answer is judged as evidence instead of the scenario timing out.
    public func answerAllowanceMs(on target: Target) -> Int { Self.answerAllowanceMs(steps, on: target) }

    private static func answerAllowanceMs(_ steps: [ScenarioStep], on target: Target) -> Int {
        steps.reduce(0) { total, step in
            guard case .profile(let p) = step.step else { return total }
            let own = (p.base as? any DecodableStep)?.answerAllowanceMs(on: target) ?? 0
            return total + own + answerAllowanceMs(p.base.nestedSteps, on: target)
        }
    }
}
