import Conformance
import Foundation
import HTTP
import JSON
import Reports

/// `pushToUser:`, `pushBroadcast:`, `voipPush:` — makes the backend run one of the kit's helpers through the
/// operation the target maps (`POST /push/user` … on the embedded kit server) and reads its `delivered`.
struct OneSignalSendStep: DecodableStep, Equatable {
    var kind: OneSignalOperation.Kind
    /// The scenario user pushed to (its External ID is `ScenarioRun.oneSignalExternalId`); nil for a broadcast.
    var user: String?
    var title: JSONValue?
    var body: JSONValue?
    var data: JSONValue?
    var options: JSONValue?
    /// Sends to the instance started without the OneSignal settings (`Target.unconfiguredBaseURL`).
    var unconfigured: Bool
    /// The `delivered` the backend must answer, and the requirement a different one fails.
    var expectDelivered: Bool?
    var requirement: String?
    var save: String?

    var keyword: String { kind.rawValue }

    static let keywords = OneSignalOperation.Kind.allCases.map(\.rawValue)

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        OneSignalOperation.Kind(rawValue: keyword).flatMap { decoder.decodeOneSignalSend($0, node, path) }
    }

    /// The data member through which every request of a run can be told apart from other runs'.
    static let runMarker = "ringcheckRun"

    /// The path and body the target's mapping makes of ringcheck's request: its placeholders (`{userId}`, …)
    /// filled from the request's members (percent-encoded in the path), the request itself without a body template.
    static func render(_ mapping: ProfileOperationMapping, _ request: [(key: String, value: JSONValue)]) -> (
        path: String, body: [UInt8]
    ) {
        let values = Dictionary(request.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var used: Set<String> = []
        // The loader admits only placeholders the operation fills, so a path always renders.
        let path = RequestTemplate.interpolate(mapping.path, values, encode: true, used: &used) ?? mapping.path
        let body = mapping.body.flatMap { RequestTemplate.render($0, values, used: &used) } ?? .object(request)
        return (path, body.bytes())
    }

    func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        let target = context.target
        let base: String
        if unconfigured {
            guard let url = target.unconfiguredBaseURL else {
                throw HarnessStop(
                    message: "\(step.path): the target has no unconfigured instance (unconfiguredBaseURL)")
            }
            base = url
        } else {
            base = target.baseURL
        }
        let mapping = target.profileOperations[kind.rawValue] ?? ProfileOperationMapping(path: kind.defaultPath)
        let externalId = user.map { context.oneSignalExternalId($0) }
        let tag = context.runTag
        var sentData = try data.map { try context.resolver.resolve($0) } ?? .object([])
        guard case .object(var members) = sentData else {
            throw HarnessStop(message: "\(step.path).data: not an object")
        }
        members.append((Self.runMarker, .string(tag)))
        sentData = .object(members)
        let resolvedOptions = try options.map { try context.resolver.resolve($0) }
        var request: [(key: String, value: JSONValue)] = []
        var title: String?
        var text: String?
        if let externalId { request.append(("userId", .string(externalId))) }
        if kind != .voipPush {
            title = try self.title.map { try context.resolver.resolve($0) }?.stringValue ?? "ringcheck \(tag)"
            text = try self.body.map { try context.resolver.resolve($0) }?.stringValue ?? "A test push of run \(tag)"
            // A broadcast names no user: its title carries the run's tag too, so it stays this run's even when the
            // server drops its data (two scenarios' broadcasts can be sent at the same moment).
            if kind == .pushBroadcast, let t = title, !t.contains(tag) { title = t + " [\(tag)]" }
            request.append(("title", .string(title!)))
            request.append(("body", .string(text!)))
        }
        request.append(("data", sentData))
        if let resolvedOptions { request.append(("options", resolvedOptions)) }
        let (path, bodyBytes) = Self.render(mapping, request)
        let method = mapping.method
        let where_ = unconfigured ? " (unconfigured instance)" : ""
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        if mapping.auth != nil, let signIn = target.profileOperationHeaders {
            let credentials: [String: String]
            do { credentials = try await signIn(kind.rawValue) } catch {
                throw HarnessStop(message: "\(step.path) \(keyword): cannot sign the operation in (\(error))")
            }
            for (name, value) in credentials.sorted(by: { $0.key < $1.key }) { headers.add(name, value) }
        }
        // Requests are told apart by content (`OneSignalAttribution`), among the operations begun before they
        // arrived: begin after the millisecond clock of the captures has passed the previous operation's answer, so
        // that two operations alike stay apart when one answered before the other began.
        if let previous = context.oneSignal.operations.last?.answeredAtMs {
            while context.nowMs <= previous { try await Task.sleep(nanoseconds: 200_000) }
        }
        let exchange = await context.exchange(
            OutgoingRequest(
                method, path, baseURL: base, headers: headers, body: bodyBytes, actor: "onesignal-kit",
                summary: "\(method) \(path)\(where_)"))
        let status = try context.answered(exchange.status, error: exchange.error, what: "\(step.path) \(keyword)")
        let read = OneSignalAnswer.read(status: status, body: exchange.body, path: mapping.delivered)
        context.oneSignal.operations.append(
            OneSignalOperation(
                kind: kind, externalId: externalId, title: title, body: text, data: sentData, options: resolvedOptions,
                unconfigured: unconfigured, sentAtMs: exchange.sentAtMs, answeredAtMs: exchange.answeredAtMs,
                delivered: try? read.get()))
        if let save { context.resolver.saved[save] = exchange.json ?? .null }
        let what = "\(step.path) \(keyword)\(where_)"
        let delivered: Bool
        switch read {
        case .success(let d): delivered = d
        case .failure(let problem): throw HarnessStop(message: "\(what): \(method) \(path) \(problem.message)")
        }
        if let expectDelivered, delivered != expectDelivered {
            try context.fail(
                requirement, check: "\(what): delivered", expected: "\(expectDelivered)", actual: "\(delivered)",
                evidence: [exchange.evidence(headers: false, limit: 2000)])
        }
    }
}
