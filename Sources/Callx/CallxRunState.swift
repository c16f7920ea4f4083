import Conformance
import JSON

/// The events one reader (a user, or a device's installation) has read from the feed.
struct FeedState {
    var installationId: String
    var user: String
    var cursor: String?
    var events: [JSONValue] = []
    var eventIds: Set<String> = []
    var consumed: Set<Int> = []
}

/// What the Callx profile keeps of one scenario run (`CallxProfile.RunState`): what it observed of each
/// call, the calls' last snapshots, the media credentials the backend issued and the feeds it read.
public struct CallxRunState: ProfileRunState {
    public init() {}

    /// What the engine observed of each call, for the invariants and the clean-up.
    var calls: [String: CallTimeline] = [:]
    /// Each call's latest snapshot, as a 2xx answer carried it.
    var snapshots: [String: JSONValue] = [:]
    /// Media credential values the backend issued: none may travel in a push, and no report shows them.
    var mediaCredentials: [String] = []
    /// Each reader's feed, by the user or device that reads it, made on its first read.
    var feeds: [String: FeedState] = [:]

    public var reportSecrets: [String] { mediaCredentials }
}

extension RunContext {
    /// The Callx profile's state of this run.
    var callx: CallxRunState {
        get { profileStates[CallxProfile.self] }
        _modify { yield &profileStates[CallxProfile.self] }
    }

    /// `reader`'s feed, made on first use: a scenario user reads through its own installation (registered
    /// at set-up, `registerUserInstallations`), a device through its own.
    func feed(_ reader: String) throws -> FeedState {
        if let feed = callx.feeds[reader] { return feed }
        let feed: FeedState
        if users[reader] != nil {
            feed = FeedState(installationId: try identity(.user(reader)).installationId, user: reader)
        } else if let d = devices[reader] {
            feed = FeedState(installationId: d.installationId, user: d.user)
        } else {
            throw HarnessStop(message: "unknown reader '\(reader)'")
        }
        callx.feeds[reader] = feed
        return feed
    }
}
