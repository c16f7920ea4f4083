extension Scenario {
    /// The users whose own event feed a step reads (`pollEvents: {as: a}`, `expectEvent: {as: a}`), in
    /// the order first read, nested and racing steps included. The engine registers each one's
    /// installation with a push token before the first step: a real app reads its feed with an
    /// installation it registered, and a backend may refuse one it never saw.
    public var feedReadingUsers: [String] {
        var out: [String] = []
        for step in allProfileSteps {
            for name in step.feedReaders where !out.contains(name) { out.append(name) }
        }
        return out
    }
}
