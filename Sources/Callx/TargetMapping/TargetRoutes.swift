import Conformance

/// The routes of the Callx reference design's call API, the canonical requests the profile builds
/// before a target's mapping (`TargetMapping`) moves them; the token route is the engine's
/// (`Target.tokenRoute`).
public struct TargetRoutes: Sendable, Equatable {
    public var calls = "/v1/calls"
    /// `{callId}` is replaced.
    public var call = "/v1/calls/{callId}"
    public var answer = "/v1/calls/{callId}/answer"
    public var end = "/v1/calls/{callId}/end"
    public var mediaSession = "/v1/calls/{callId}/media-session"
    /// The feed of one installation; the profile adds `installationId` and `cursor` query parameters.
    public var events = "/v1/call-events"

    public init() {}
}
