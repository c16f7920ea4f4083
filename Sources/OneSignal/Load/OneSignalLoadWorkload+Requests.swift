import Conformance
import Foundation
import HTTP
import JSON
import PushMocks

extension OneSignalLoadWorkload {
    // MARK: One operation

    /// Subscribes the operation's audience on the mock, calls the kit's route for it (the target's mapping, signed
    /// in when the mapping says so) and reads its `delivered`; why the unit failed, nil when it was played.
    func perform(_ script: OneSignalLoadScript, _ index: Int) async -> String? {
        let kind = script.kind
        let marker = "\(prefix)-op\(index)"
        let externalId = kind == .pushBroadcast ? nil : RandomText.uuid()
        let title = kind == .voipPush ? nil : "ringcheck load \(index) [\(marker)]"
        let text = kind == .voipPush ? nil : "A load push of \(marker)"
        let data: JSONValue = .object([("index", .int(Int64(index))), (OneSignalSendStep.runMarker, .string(marker))])
        let options = script.options(index, marker: marker).map(JSONValue.object)
        if let externalId, script.devices(index) > 0 {
            let app = kind == .voipPush ? mock.voipApp : mock.standardApp
            mock.audience.subscribe(externalId: externalId, appId: app.appID, devices: script.devices(index))
        }
        let base = script == .unconfigured ? target.unconfiguredBaseURL ?? target.baseURL : target.baseURL
        let mapping = target.profileOperations[kind.rawValue] ?? ProfileOperationMapping(path: kind.defaultPath)
        var request: [(key: String, value: JSONValue)] = []
        if let externalId { request.append(("userId", .string(externalId))) }
        if let title, let text { request += [("title", .string(title)), ("body", .string(text))] }
        request.append(("data", data))
        if let options { request.append(("options", options)) }
        let (path, body) = OneSignalSendStep.render(mapping, request)
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        if mapping.auth != nil, let signIn = target.profileOperationHeaders {
            do {
                for (name, value) in try await signIn(kind.rawValue).sorted(by: { $0.key < $1.key }) {
                    headers.add(name, value)
                }
            } catch {
                return "operation #\(index) \(kind.rawValue): cannot sign the operation in (\(error))"
            }
        }
        let name =
            "operation #\(index) \(script.rawValue)" + (externalId.map { " to \($0)" } ?? "")
            + (script == .unconfigured ? " (unconfigured instance)" : "")
        let sentAtMs = LoadDriver.wallMs()
        judge.open(
            OneSignalLoadJudge.Entry(
                index: index,
                operation: OneSignalOperation(
                    kind: kind, externalId: externalId, title: title, body: text, data: data, options: options,
                    unconfigured: script == .unconfigured, sentAtMs: sentAtMs, answeredAtMs: sentAtMs, delivered: nil),
                name: name, marker: marker))
        let started = ContinuousClock.now
        let answer: ClientResponse
        do {
            answer = try await client.send(
                ClientRequest(method: mapping.method, url: base + path, headers: headers, body: body))
        } catch {
            recorder.latency(script.rawValue, ms: LoadDriver.seconds(.now - started) * 1000, answered: false)
            judge.close(index, delivered: nil, answeredAtMs: LoadDriver.wallMs())
            return "\(name): \(mapping.method) \(path): no answer: \(error)"
        }
        recorder.latency(script.rawValue, ms: LoadDriver.seconds(.now - started) * 1000)
        switch OneSignalAnswer.read(status: answer.status, body: answer.body, path: mapping.delivered) {
        case .success(let delivered):
            judge.close(index, delivered: delivered, answeredAtMs: LoadDriver.wallMs())
            return nil
        case .failure(let problem):
            judge.close(index, delivered: nil, answeredAtMs: LoadDriver.wallMs())
            return "\(name): \(mapping.method) \(path) \(problem.message)"
        }
    }
}
