import Conformance
import InputLimits
import JSON
import PushMocks

/// `ringcheck trigger onesignal`: one kit operation through a running kit server (`OneSignalTrigger`).
public struct OneSignalTriggerOptions: TriggerProfileOptions {
    /// What `--url` names.
    public static let urlExample = "the kit server's base URL, e.g. http://127.0.0.1:8080"
    /// Its paragraph of `trigger --help`: what its exchange does and what it judges.
    public static let helpSection = """
        onesignal: makes the kit server at --url run one operation (--send user: POST /push/user, broadcast:
        /push/broadcast, voip: /push/voip; --heading, --content, --data, --options as the seed's PushOptions)
        and shows the OneSignal request it made on ringcheck's mock OneSignal, where --devices devices of the
        External ID --user (default: a fresh UUID) are subscribed in the operation's app; the request is judged
        by suites/onesignal/requirements.yaml (the app and key, the targeting, the VoIP defaults, the options)
        and the kit's delivered against the mock's recipients (ONESIGNAL-DELIV-1/2). The kit must send to the
        mock: start it with the settings of --mocks-dir (RINGCHECK_ONESIGNAL_*, serve-reference --profile
        onesignal --mock-settings) and a fixed --port onesignal=PORT.
        """
    /// Its lines of `trigger --help`'s examples.
    public static let examples = [
        "ringcheck trigger onesignal --url http://127.0.0.1:8080 --send voip --options '{\"ttl\":30}' --port onesignal=8446"
    ]
    /// Its rows of `trigger --help`.
    public static let optionRows: [ProfileOptionRow] = [
        .value("send", "WHAT", help: "user, broadcast or voip", default: "user"),
        .value("heading", "TEXT", help: "the title", default: "ringcheck"),
        .value("content", "TEXT", help: "the body", default: "A notification from ringcheck trigger"),
        .value("data", "JSON", help: "the operation's data (an object)", default: "{}"),
        .value("options", "JSON", help: "the operation's PushOptions (an object)", default: "none"),
        .value(
            "devices", "N", help: "subscribed devices of the External ID on the mock (0: nobody)", default: "1",
            number: .whole(0...100)),
    ]

    var plan: OneSignalTriggerPlan

    public init(_ arguments: any TriggerArguments, shared: TriggerSharedOptions, environment: [String: String]) throws {
        for (option, given) in [("no-devices", shared.noDevices), ("keep-devices", shared.keepDevices)] where given {
            throw TriggerOptionError(
                "--\(option) does not apply to trigger onesignal: it registers no device (see --devices)")
        }
        var operation = OneSignalTriggerPlan.Operation.user
        if let send = arguments.value("send") {
            operation = try TriggerOptionError.choice("send", send, is: "a kit operation")
        }
        plan = OneSignalTriggerPlan(baseURL: shared.url, operation: operation)
        if let user = shared.user {
            guard operation != .broadcast else {
                throw TriggerOptionError("--send broadcast names no user: --user does not apply")
            }
            guard !user.isEmpty else {
                throw TriggerOptionError("--user takes a non-empty External ID")
            }
            plan.externalId = user
        }
        if operation == .voip {
            for option in ["heading", "content"] where arguments.value(option) != nil {
                throw TriggerOptionError("--send voip sends data only: --\(option) does not apply")
            }
        }
        if let heading = arguments.value("heading") { plan.title = heading }
        if let content = arguments.value("content") { plan.body = content }
        for (option, object) in [("data", true), ("options", true)] where object {
            guard let text = arguments.value(option) else { continue }
            let value: JSONValue
            do { value = try JSONValue.parse(text) } catch {
                throw TriggerOptionError("--\(option) is not JSON: \(error)")
            }
            guard value.objectValue != nil else {
                throw TriggerOptionError("--\(option) must be a JSON object, not \(value.typeName)")
            }
            if option == "data" { plan.data = value } else { plan.options = value }
        }
        plan.devices = try arguments.int("devices") ?? 1
        if let settle = shared.settle { plan.settle = settle }
    }

    public var announcement: String {
        "Making the kit at \(plan.baseURL) run \(plan.operation.rawValue)"
            + (plan.operation == .broadcast ? "" : " for \(plan.externalId)")
    }

    public func trigger(mocks: MockStack, emit: @escaping @Sendable (CallTimelineEntry) -> Void) throws
        -> any ProfileTrigger
    {
        try OneSignalTrigger(plan: plan, mocks: mocks, emit: emit)
    }
}

extension OneSignalProfile {
    /// `ringcheck trigger onesignal` reads its options with `OneSignalTriggerOptions`.
    public var triggerOptions: (any TriggerProfileOptions.Type)? { OneSignalTriggerOptions.self }
}
