import Conformance
import JSON
import OneSignal
import PushMocks

/// `ringcheck trigger onesignal`: one kit operation through a running kit server (`OneSignalTrigger`).
struct OneSignalTriggerOptions: TriggerProfileOptions {
    static let profile = OneSignalProfile().name
    static let ownOptions = ["send", "heading", "content", "data", "options", "devices"]

    var plan: OneSignalTriggerPlan

    init(_ arguments: ParsedArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
        let name = TriggerCommand.configuration.name
        for (option, given) in [("no-devices", shared.noDevices), ("keep-devices", shared.keepDevices)] where given {
            throw UsageError(
                message: "--\(option) does not apply to trigger onesignal: it registers no device (see --devices)",
                command: name)
        }
        var operation = OneSignalTriggerPlan.Operation.user
        if let send = arguments.value("send") {
            operation = try TriggerCommand.choice("send", send, is: "a kit operation")
        }
        plan = OneSignalTriggerPlan(baseURL: shared.url, operation: operation)
        if let user = shared.user {
            guard operation != .broadcast else {
                throw UsageError(message: "--send broadcast names no user: --user does not apply", command: name)
            }
            guard !user.isEmpty else {
                throw UsageError(message: "--user takes a non-empty External ID", command: name)
            }
            plan.externalId = user
        }
        if operation == .voip {
            for option in ["heading", "content"] where arguments.value(option) != nil {
                throw UsageError(message: "--send voip sends data only: --\(option) does not apply", command: name)
            }
        }
        if let heading = arguments.value("heading") { plan.title = heading }
        if let content = arguments.value("content") { plan.body = content }
        for (option, object) in [("data", true), ("options", true)] where object {
            guard let text = arguments.value(option) else { continue }
            let value: JSONValue
            do { value = try JSONValue.parse(text) } catch {
                throw UsageError(message: "--\(option) is not JSON: \(error)", command: name)
            }
            guard value.objectValue != nil else {
                throw UsageError(message: "--\(option) must be a JSON object, not \(value.typeName)", command: name)
            }
            if option == "data" { plan.data = value } else { plan.options = value }
        }
        plan.devices = try arguments.int("devices") ?? 1
        if let settle = shared.settle { plan.settle = settle }
    }

    var announcement: String {
        "Making the kit at \(plan.baseURL) run \(plan.operation.rawValue)"
            + (plan.operation == .broadcast ? "" : " for \(plan.externalId)")
    }

    func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws -> any ProfileTrigger {
        try OneSignalTrigger(plan: plan, mocks: mocks, emit: emit)
    }
}
