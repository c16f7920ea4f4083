import JSON
import PushMocks
import Reports

@testable import Callx
@testable import Conformance

/// A profile for tests of the engine's profile hooks (not issue 26's probe profile, which is the module
/// `Tests/Probe`): reads pushes as Callx does and borrows its `create`,
/// adds a `probe` step (a request step: `GET` of a path, its status judged) and a `countPushes` step, and has one invariant
/// (every judged push was accepted by its provider) charged to `invariantRequirement`. Its own state
/// (`HookTestRunState`) keeps the paths its probes sent, which its invariants note.
struct HookTestProfile: Profile {
    typealias RunState = HookTestRunState

    var name: String { "hooktest" }
    var summary: String { "test profile" }
    var stepKeywords: [String] { ["probe", "countPushes", "create"] }
    var requestStepKeywords: [String] { ["probe", "create"] }
    var defaultPushType: String? { nil }
    var invariantRequirement = "CALLX-E2E-1"

    func decodeStep(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> (any ProfileStep)?
    {
        switch keyword {
        case "create": return CallxProfile().decodeStep(keyword, node, path: path, decoder: &decoder)
        case "probe":
            guard
                let f = decoder.d.mapping(
                    node, path, known: ["as", "device", "path", "status", "save"], required: ["path"])
            else { return nil }
            let who = decoder.actor(f, path, node: node, required: true)
            let target = f["path"].map { decoder.value($0.value, path + ".path") }
            let status = f["status"].flatMap { decoder.d.int($0.value, path + ".status", min: 100) }
            var save: String?
            if let e = f["save"], let name = decoder.saveName(e.value, path + ".save") {
                save = name
                decoder.stepSaves.append(name)
            }
            guard let who, let target else { return nil }
            return ProbeStep(actor: who, path: target, status: status, save: save)
        default:
            guard let f = decoder.d.mapping(node, path, known: ["device", "atLeast"], required: ["device"]),
                let device = f["device"].flatMap({ decoder.device($0.value, path + ".device") })
            else { return nil }
            let atLeast = f["atLeast"].flatMap { decoder.d.int($0.value, path + ".atLeast", min: 0) } ?? 1
            return CountPushesStep(device: device, atLeast: atLeast)
        }
    }

    func pushView(_ capture: Capture) -> PushView? { CallxProfile().pushView(capture) }

    func invariantFailures(with run: isolated any RunContext) async -> [CheckFailure] {
        run.note("probe sent \(run.hookTest.paths.count) request(s)")
        let refused = run.judgedCaptures().filter { !$0.outcome.isAccepted }
        guard !refused.isEmpty else { return [] }
        return [
            CheckFailure(
                requirement: invariantRequirement, level: run.level(invariantRequirement),
                check: "probe invariant", expected: "every push accepted",
                actual: "\(refused.count) refused", evidence: [])
        ]
    }
}

/// What the hook-test profile keeps of one run: the path of every probe it sent (alone or in a race). It names
/// them as report secrets, standing in for what a real profile's state hides (Callx's media credentials):
/// reports show them shortened.
struct HookTestRunState: ProfileRunState {
    var paths: [String] = []
    var reportSecrets: [String] { paths }
}

extension RunContext {
    /// The hook-test profile's state of this run.
    var hookTest: HookTestRunState {
        get { profileStates[HookTestProfile.self] }
        _modify { yield &profileStates[HookTestProfile.self] }
    }
}

struct ProbeStep: ProfileStep, Equatable {
    var actor: StepActor
    var path: JSONValue
    var status: Int?
    var save: String?
    var keyword: String { "probe" }

    func request(with run: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)? {
        let who = try run.identity(actor)
        let request = PreparedRequest(
            actor: who.label, method: "GET", path: try run.resolver.string(path), credentials: who.user.authHeaders)
        run.hookTest.paths.append(request.path)
        let expect = status.map { ResponseExpectation(status: [$0], requirement: "CALLX-SEC-1") }
        return (request, RequestOptions(save: save, expect: expect))
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        guard let (request, options) = try request(with: run) else { return }
        try await run.sendAndJudge(request, options, step: step)
    }
}

struct CountPushesStep: ProfileStep, Equatable {
    var device: String
    var atLeast: Int
    var keyword: String { "countPushes" }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        let d = try run.device(device)
        let n = run.captures(for: d).count
        run.note("\(device) got \(n) push(es)")
        if n < atLeast {
            try run.fail(
                "CALLX-E2E-1", check: "\(step.path) countPushes", expected: "at least \(atLeast)", actual: "\(n)")
        }
    }
}
