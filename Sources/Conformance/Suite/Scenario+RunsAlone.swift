extension Scenario {
    /// Whether the scenario must run with no other scenario beside it on the same backend: restarting the
    /// backend would disturb every scenario running at that moment, and so would a fault plan that resets or
    /// closes a connection (`connection:`), since a backend multiplexes every device's pushes over its provider
    /// connections: another scenario's push in flight on that connection would be lost after the mock recorded
    /// its answer, and its retry judged as the backend ignoring that answer. `SuiteRunner` runs these one at a
    /// time, on a backend instance of their own when there is one, else after all the others.
    public var runsAlone: Bool {
        steps.contains { step in
            switch step.step {
            case .restartBackend: return true
            case .fault(let fault): return fault.plan.connection != nil
            default: return false
            }
        }
    }
}
