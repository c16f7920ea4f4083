extension Scenario {
    /// Every profile step of the scenario in order, the steps nested in others and in races included:
    /// what a profile looks through before the first step (the users whose feeds are read, the users who
    /// act), whatever depth a step sits at.
    public var allProfileSteps: [any ProfileStep] {
        var out: [any ProfileStep] = []
        Self.collectProfileSteps(steps, into: &out)
        return out
    }

    private static func collectProfileSteps(_ steps: [ScenarioStep], into out: inout [any ProfileStep]) {
        for step in steps {
            switch step.step {
            case .race(let r): collectProfileSteps(r.steps, into: &out)
            case .profile(let p):
                out.append(p.base)
                collectProfileSteps(p.base.nestedSteps, into: &out)
            default: break
            }
        }
    }
}
