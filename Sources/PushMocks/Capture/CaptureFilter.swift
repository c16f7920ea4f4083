/// Which captures a query returns. Every set field must match.
public struct CaptureFilter: Sendable, Equatable {
    public var mock: MockProviderID?
    /// APNs device token or FCM registration token (APNs tokens compare case-insensitively).
    public var deviceToken: String?
    public var environment: APNsEnvironment?
    /// Only captures with a sequence number greater than this.
    public var afterSequence: Int?
    /// Only captures that arrived at or after this time (ms).
    public var sinceMs: Int64?
    /// Only accepted captures.
    public var acceptedOnly: Bool

    /// Creates a value from its parts.
    public init(
        mock: MockProviderID? = nil, deviceToken: String? = nil, environment: APNsEnvironment? = nil,
        afterSequence: Int? = nil, sinceMs: Int64? = nil, acceptedOnly: Bool = false
    ) {
        self.mock = mock
        self.deviceToken = deviceToken
        self.environment = environment
        self.afterSequence = afterSequence
        self.sinceMs = sinceMs
        self.acceptedOnly = acceptedOnly
    }

    /// True when `capture` passes the filter.
    public func matches(_ capture: Capture) -> Bool {
        if let mock, capture.mock != mock { return false }
        if let environment, capture.environment != environment { return false }
        if let afterSequence, capture.sequence <= afterSequence { return false }
        if let sinceMs, capture.arrivalMs < sinceMs { return false }
        if acceptedOnly, !capture.outcome.isAccepted { return false }
        if let deviceToken {
            guard let token = capture.deviceToken else { return false }
            if token != deviceToken && !(capture.mock == .apns && token.lowercased() == deviceToken.lowercased()) {
                return false
            }
        }
        return true
    }
}
