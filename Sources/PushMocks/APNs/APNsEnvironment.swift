/// The APNs environment a mock plays (`api.push.apple.com` or `api.sandbox.push.apple.com`), a device
/// token is registered for, a capture was sent to: one type for the mocks, scenarios and checks.
public enum APNsEnvironment: String, Sendable, Codable, CaseIterable {
    case sandbox
    case production
}
