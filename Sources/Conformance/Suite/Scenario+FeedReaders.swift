extension Scenario {
    /// The users whose own event feed a step reads (`pollEvents: {as: a}`, `expectEvent: {as: a}`), in
    /// the order first read, nested and racing steps included. The engine registers each one's
    /// installation with a push token before the first step: a real app reads its feed with an
    /// installation it registered, and a backend may refuse one it never saw.
    public var feedReadingUsers: [String] {
        var out: [String] = []
        Self.collectFeedReaders(steps, into: &out)
        return out
    }

    private static func collectFeedReaders(_ steps: [ScenarioStep], into out: inout [String]) {
        for step in steps {
            switch step.step {
            case .race(let r): collectFeedReaders(r.steps, into: &out)
            case .profile(let p):
                for name in p.base.feedReaders where !out.contains(name) { out.append(name) }
                collectFeedReaders(p.base.nestedSteps, into: &out)
            default: break
            }
        }
    }
}
