extension Scenario {
    /// Whether the scenario must run with no other scenario beside it: restarting the backend would
    /// disturb every scenario running at that moment. `SuiteRunner` runs these one at a time, after
    /// all the others.
    public var runsAlone: Bool { steps.contains { $0.step == .restartBackend } }
}
