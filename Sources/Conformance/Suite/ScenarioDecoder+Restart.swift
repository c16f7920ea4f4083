// MARK: - restartBackend

extension ScenarioDecoder {
    /// `restartBackend: {}` (or nothing after the colon): the step has no fields yet.
    mutating func decodeRestart(_ node: YAMLNode, _ p: String) -> Step? {
        if case .scalar(let text, .plain) = node.content, ["", "~", "null"].contains(text) { return .restartBackend }
        guard d.mapping(node, p, known: []) != nil else { return nil }
        return .restartBackend
    }

    /// A scenario that restarts the backend must say so in `needs`, so targets that cannot restart
    /// skip it as not applicable instead of failing it.
    mutating func checkRestartNeeds(_ steps: [ScenarioStep], needs: [Capability]) {
        guard !needs.contains(.restart) else { return }
        for step in steps where step.step == .restartBackend {
            d.error(
                step.mark, step.path + ".restartBackend", "a scenario with this step must declare 'needs: [restart]'")
        }
    }
}
