import Conformance
import JSON

extension TargetMapping {
    /// Why `scenario` cannot run on this target because of its raw `request` steps, or nil.
    ///
    /// A raw request names a reference-design path literally, so it cannot be mapped: it applies only
    /// when the target sends the operation its path and method belong to with the same method and path
    /// (its body, headers or answers may differ: the raw request's own checks do not read them).
    public func rawRequestProblem(_ scenario: Scenario) -> String? {
        for s in Self.rawRequests(scenario.steps) {
            guard case .request(let r) = s.step else { continue }
            let path = r.path.stringValue ?? ""
            guard let operation = Self.referenceOperation(method: r.method, path: path) else {
                return
                    "\(s.path) sends a raw \(r.method.uppercased()) \(path), a route of no operation the target file maps"
            }
            let mapped = self[operation]
            let reference = OperationMapping.reference(operation)
            if mapped.method != reference.method
                || RequestTemplate.splitQuery(mapped.path).0 != RequestTemplate.splitQuery(reference.path).0
            {
                return
                    "\(s.path) sends a raw request to the reference design's \(r.method.uppercased()) \(path), and the target maps \(operation.rawValue) to \(mapped.method) \(mapped.path)"
            }
        }
        return nil
    }

    static func rawRequests(_ steps: [ScenarioStep]) -> [ScenarioStep] {
        steps.flatMap { s -> [ScenarioStep] in
            switch s.step {
            case .request: return [s]
            case .race(let r): return rawRequests(r.steps)
            default: return []
            }
        }
    }

    /// The operation whose reference method and path `path` (with `${…}` references) matches.
    static func referenceOperation(method: String, path: String) -> TargetOperation? {
        let segments = RequestTemplate.splitQuery(path).0.split(separator: "/", omittingEmptySubsequences: false)
        return TargetOperation.allCases.first { op in
            let m = OperationMapping.reference(op)
            guard m.method == method.uppercased() else { return false }
            let template = RequestTemplate.splitQuery(m.path).0.split(separator: "/", omittingEmptySubsequences: false)
            guard template.count == segments.count else { return false }
            return zip(template, segments).allSatisfy { t, s in
                t == s || (t.hasPrefix("{") && !s.isEmpty) || s.contains("$")
            }
        }
    }
}
