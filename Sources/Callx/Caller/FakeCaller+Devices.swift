import Conformance
import JSON

extension FakeCaller {
    // MARK: A virtual device answers or declines

    /// Waits for the responding device's invitation (when the mocks can see it), then the planned
    /// delay, then answers or declines as that device.
    func respond() async {
        guard let response = plan.response, let device = plan.calleeDevices.first(where: { $0.name == response.device })
        else { return }
        if let log = mocks?.log {
            let id = callId
            let arrived = await log.waitFor(
                { c in
                    c.outcome.isAccepted && Self.capture(c, isFor: device) && Self.capture(c, isForCall: id)
                        && PushMatchDocument.callx(c)?["type"]?.stringValue == "call.invited"
                }, timeout: .seconds(3600))
            guard arrived != nil, !Task.isCancelled else { return }
        }
        try? await Task.sleep(for: response.after)
        guard !Task.isCancelled else { return }
        guard progress.state == .ringing else {
            note(
                "the virtual \(device.name) does not \(response.action.rawValue): the call is \(progress.state.rawValue)"
            )
            return
        }
        let path: String
        let operation: RequestOperation
        var body: JSONValue = ["operationId": .string(operationId()), "installationId": .string(device.installationId)]
        switch response.action {
        case .answer:
            path = callPath(target.routes.answer)
            operation = .answer
        case .decline:
            path = callPath(target.routes.end)
            operation = .end
            body = body.setting("reason", to: "declined")
        }
        let reply = await send(
            operation, "POST", path, as: plan.callee, body: body,
            values: ["callId": .string(callId), "installationId": .string(device.installationId)])
        let verb = response.action == .answer ? "answers" : "declines"
        entry(
            .action, "virtual \(device.name) \(verb): \(reply.sent) → \(reply.summary)",
            [
                ("device", .string(device.name)), ("action", .string(response.action.rawValue)),
                ("status", reply.status.map { .int($0) } ?? .null),
            ])
        if response.action == .answer && reply.ok { virtualAnswered = true }
    }
}
