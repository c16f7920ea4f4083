/// What a mock does to the connection under a fault.
public enum FaultConnectionAction: String, Sendable, Codable, CaseIterable {
    /// Reset the connection without answering; the request is recorded as rejected (`ConnectionReset`).
    case reset
    /// Process the request normally (recorded with its real outcome, normally accepted), then reset
    /// without sending the response: the backend never sees the 200. A duplicate-push trap.
    case resetAfterAccept
    /// Answer (normally, or with `respond`), then send HTTP/2 GOAWAY.
    case goaway
}

/// An error answer a fault substitutes for the mock's own.
///
/// APNs: `status` and/or `reason` (the other is derived: `TooManyRequests` → 429, 503 → `ServiceUnavailable`).
/// FCM: `status` and/or `errorCode` (`UNAVAILABLE` → 503, 429 → `QUOTA_EXCEEDED`). OAuth: `status` and
/// `reason` as the `error` value (default `invalid_grant`, 400).
public struct FaultResponse: Sendable, Codable, Equatable {
    public var status: Int?
    public var reason: String?
    public var errorCode: String?
    public var message: String?

    /// Creates a value from its parts.
    public init(status: Int? = nil, reason: String? = nil, errorCode: String? = nil, message: String? = nil) {
        self.status = status
        self.reason = reason
        self.errorCode = errorCode
        self.message = message
    }
}

/// A fault to inject: which requests it matches, how many times, and what happens to them.
///
/// Pure data: installed through `FaultPlans` (or `POST /v1/faults`), applied by the mocks, and
/// recorded in each affected `Capture`.
public struct FaultPlan: Sendable, Codable, Equatable {
    /// Assigned on installation when nil (`f1`, `f2`, …); installing a plan with an existing ID replaces it.
    public var id: String?
    /// Only requests to this mock; nil matches every mock.
    public var mock: MockProviderID?
    /// Only requests for this APNs device token or FCM registration token; nil matches every request.
    public var deviceToken: String?
    /// How many matching requests the plan affects; nil means all of them.
    public var times: Int?
    /// Answer with this error instead of processing the request.
    public var respond: FaultResponse?
    /// Delay the answer by this many milliseconds.
    public var latencyMs: Int?
    /// Add `Retry-After: <seconds>` to the answer.
    public var retryAfter: Int?
    /// Reset the connection or send GOAWAY.
    public var connection: FaultConnectionAction?
    /// The HTTP/2 error code of a GOAWAY (default 0, NO_ERROR).
    public var goawayErrorCode: UInt32?

    /// Creates a value from its parts.
    public init(
        id: String? = nil, mock: MockProviderID? = nil, deviceToken: String? = nil, times: Int? = nil,
        respond: FaultResponse? = nil, latencyMs: Int? = nil, retryAfter: Int? = nil,
        connection: FaultConnectionAction? = nil, goawayErrorCode: UInt32? = nil
    ) {
        self.id = id
        self.mock = mock
        self.deviceToken = deviceToken
        self.times = times
        self.respond = respond
        self.latencyMs = latencyMs
        self.retryAfter = retryAfter
        self.connection = connection
        self.goawayErrorCode = goawayErrorCode
    }

    /// True when the plan applies to a request to `mock` for `deviceToken`.
    public func matches(mock: MockProviderID, deviceToken token: String?) -> Bool {
        if let want = self.mock, want != mock { return false }
        if let want = deviceToken {
            guard let token else { return false }
            if want != token && !(mock == .apns && want.lowercased() == token.lowercased()) { return false }
        }
        return true
    }

    /// The problems that make the plan unusable; empty when it is valid.
    public func validationErrors() -> [String] {
        var errors: [String] = []
        if let times, times < 1 { errors.append("times must be at least 1 (omit it for every matching request)") }
        if let latencyMs, !(0...120_000).contains(latencyMs) { errors.append("latencyMs must be 0…120000") }
        if let retryAfter, !(0...86_400).contains(retryAfter) { errors.append("retryAfter must be 0…86400 seconds") }
        if let deviceToken, deviceToken.isEmpty {
            errors.append("deviceToken must not be empty (omit it to match all)")
        }
        if let respond {
            if respond.status == nil && respond.reason == nil && respond.errorCode == nil {
                errors.append("respond needs status, reason or errorCode")
            }
            if let status = respond.status, !(400...599).contains(status) {
                errors.append("respond.status must be an error status 400…599")
            }
            if let reason = respond.reason, reason.isEmpty { errors.append("respond.reason must not be empty") }
            if let code = respond.errorCode, FCMErrorCode(rawValue: code) == nil {
                let known = FCMErrorCode.allCases.map(\.rawValue).joined(separator: ", ")
                errors.append("respond.errorCode '\(code)' is not an FCM error code (\(known))")
            }
            if connection == .reset { errors.append("connection 'reset' sends no response: drop respond") }
            if connection == .resetAfterAccept {
                errors.append("connection 'resetAfterAccept' processes the request normally: drop respond")
            }
        }
        if goawayErrorCode != nil && connection != .goaway {
            errors.append("goawayErrorCode needs connection 'goaway'")
        }
        if respond == nil && latencyMs == nil && retryAfter == nil && connection == nil {
            errors.append("the plan does nothing: set respond, latencyMs, retryAfter or connection")
        }
        return errors
    }
}

/// A fault plan as applied to one request.
public struct AppliedFault: Sendable, Equatable {
    /// The plan (with its ID).
    public var plan: FaultPlan
    /// Which application of the plan this was, from 1.
    public var ordinal: Int

    /// Creates a value from its parts.
    public init(plan: FaultPlan, ordinal: Int) {
        self.plan = plan
        self.ordinal = ordinal
    }

    /// The plan's ID.
    public var planID: String { plan.id ?? "" }
}
