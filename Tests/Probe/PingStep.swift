import Conformance
import HTTP
import JSON

/// `ping: {n: 7}`: posts `{"n": 7}` to the target's `/ping` with the target file's `probe.key` in `x-probe-key`,
/// and charges `PROBE-ECHO-1` when the answer's `echo` is not `n`.
struct PingStep: DecodableStep, Equatable {
    static let keywords = ["ping"]
    var n: Int

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> PingStep?
    {
        guard let f = decoder.d.mapping(node, path, known: ["n"], required: ["n"]),
            let n = f["n"].flatMap({ decoder.d.int($0.value, path + ".n", min: 0) })
        else { return nil }
        return PingStep(n: n)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        guard let key = run.target.profileConfiguration[ProbeTargetConfiguration.self]?.key else {
            throw HarnessStop(message: "\(step.path): the target has no probe key (a target file's probe: {key: …})")
        }
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        headers.add("x-probe-key", key)
        let answer = await run.exchange(
            OutgoingRequest("POST", "/ping", headers: headers, body: Array(#"{"n":\#(n)}"#.utf8), actor: "probe"))
        try run.judge(answer, nil, what: "\(step.path) ping")
        let echo = answer.json?["echo"]?.intValue
        if echo != n {
            run.charge(
                ProbeRequirement.echo, check: "\(step.path) ping", expected: "echo \(n)",
                actual: echo.map { "echo \($0)" } ?? "no echo", evidence: [answer.evidence()])
        }
    }
}
