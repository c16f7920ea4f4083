import JSON

extension FaultPlan {
    static let jsonKeys = [
        "id", "mock", "deviceToken", "times", "respond", "latencyMs", "retryAfter", "connection", "goawayErrorCode",
    ]
    static let respondKeys = ["status", "reason", "errorCode", "message"]

    /// Reads a plan from its JSON form (see CONTROL-API in `ControlAPI`), naming every bad field.
    /// Validity of the values is checked separately by `validationErrors()`.
    public init(json: JSONValue) throws(FaultPlanError) {
        guard case .object(let members) = json else {
            throw FaultPlanError(messages: ["a fault plan must be a JSON object, not \(json.typeName)"])
        }
        var errors: [String] = []
        var plan = FaultPlan()
        for (key, value) in members {
            switch key {
            case "id":
                plan.id = Self.string(value, "id", &errors)
            case "mock":
                if case .null = value { break }
                if let s = Self.string(value, "mock", &errors) {
                    plan.mock = MockProviderID(rawValue: s)
                    if plan.mock == nil {
                        errors.append(
                            "mock must be one of \(MockProviderID.allCases.map(\.rawValue).joined(separator: ", ")) "
                                + "(got '\(s)')")
                    }
                }
            case "deviceToken":
                if case .null = value { break }
                plan.deviceToken = Self.string(value, "deviceToken", &errors)
            case "times":
                if case .null = value { break }
                plan.times = Self.int(value, "times", &errors)
            case "latencyMs":
                plan.latencyMs = Self.int(value, "latencyMs", &errors)
            case "retryAfter":
                plan.retryAfter = Self.int(value, "retryAfter", &errors)
            case "goawayErrorCode":
                if let n = Self.int(value, "goawayErrorCode", &errors) {
                    if let code = UInt32(exactly: n) {
                        plan.goawayErrorCode = code
                    } else {
                        errors.append("goawayErrorCode must be 0…4294967295")
                    }
                }
            case "connection":
                if let s = Self.string(value, "connection", &errors) {
                    plan.connection = FaultConnectionAction(rawValue: s)
                    if plan.connection == nil {
                        errors.append("connection must be one of reset, resetAfterAccept, goaway (got '\(s)')")
                    }
                }
            case "respond":
                guard case .object(let fields) = value else {
                    errors.append("respond must be an object with status, reason, errorCode, message")
                    break
                }
                var respond = FaultResponse()
                for (k, v) in fields {
                    switch k {
                    case "status": respond.status = Self.int(v, "respond.status", &errors)
                    case "reason": respond.reason = Self.string(v, "respond.reason", &errors)
                    case "errorCode": respond.errorCode = Self.string(v, "respond.errorCode", &errors)
                    case "message": respond.message = Self.string(v, "respond.message", &errors)
                    default:
                        errors.append(
                            "unknown field respond.\(k) (known: \(Self.respondKeys.joined(separator: ", ")))")
                    }
                }
                plan.respond = respond
            default:
                errors.append("unknown field '\(key)' (known: \(Self.jsonKeys.joined(separator: ", ")))")
            }
        }
        guard errors.isEmpty else { throw FaultPlanError(messages: errors) }
        self = plan
    }

    /// The plan's JSON form (absent fields omitted).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let id { members.append(("id", .string(id))) }
        if let mock { members.append(("mock", .string(mock.rawValue))) }
        if let deviceToken { members.append(("deviceToken", .string(deviceToken))) }
        if let times { members.append(("times", .int(times))) }
        if let respond {
            var r: [(key: String, value: JSONValue)] = []
            if let s = respond.status { r.append(("status", .int(s))) }
            if let s = respond.reason { r.append(("reason", .string(s))) }
            if let s = respond.errorCode { r.append(("errorCode", .string(s))) }
            if let s = respond.message { r.append(("message", .string(s))) }
            members.append(("respond", .object(r)))
        }
        if let latencyMs { members.append(("latencyMs", .int(latencyMs))) }
        if let retryAfter { members.append(("retryAfter", .int(retryAfter))) }
        if let connection { members.append(("connection", .string(connection.rawValue))) }
        if let goawayErrorCode { members.append(("goawayErrorCode", .int(goawayErrorCode))) }
        return .object(members)
    }

    private static func string(_ value: JSONValue, _ name: String, _ errors: inout [String]) -> String? {
        guard case .string(let s) = value else {
            errors.append("\(name) must be a string, not \(value.typeName)")
            return nil
        }
        return s
    }

    private static func int(_ value: JSONValue, _ name: String, _ errors: inout [String]) -> Int? {
        guard value.isIntegerLiteral, let n = value.int64Value, let i = Int(exactly: n) else {
            errors.append("\(name) must be an integer, not \(value)")
            return nil
        }
        return i
    }
}

extension FaultBook.Entry {
    /// The entry as JSON: the plan's fields plus `remaining` (null when uncounted) and `applied`.
    public var json: JSONValue {
        guard case .object(var members) = plan.json else { return plan.json }
        members.append(("remaining", remaining.map { .int($0) } ?? .null))
        members.append(("applied", .int(applied)))
        return .object(members)
    }
}
