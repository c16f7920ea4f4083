/// Which mock a request reached.
public enum MockKind: String, Sendable, Codable, CaseIterable {
    case apns
    case fcm
    case oauth
}

/// The APNs environment a mock plays: `api.push.apple.com` or `api.sandbox.push.apple.com`.
public enum APNsEnvironment: String, Sendable, Codable, CaseIterable {
    case production
    case sandbox
}
