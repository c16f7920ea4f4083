import Conformance
import PushMocks

extension RunContext {
    /// Puts on the timeline the calls the backend made to the mock DialStack API for the scenario's users since its
    /// first registration began (the seed's `users.update` enabling Wake-Up Hold, tied to a user by the ID in its
    /// path and to the scenario by the capture log's order, never by time): what a
    /// reader checks a backend's registrations against. No rule judges them: the seed's "for users your
    /// application can actually reach" is advice, and a flag enabled another way (the dashboard, a script against
    /// the real API) never reaches the mock.
    func noteDialStackAPICalls() {
        let ids = Set(users.values.map { $0.profileUserIds[DialStackProfile.profileName] ?? $0.userId })
        guard !ids.isEmpty, let after = dialStack.apiCallsAfter else { return }
        let calls = mocks.log.captures { $0.mock == .dialstack && $0.sequence > after }.compactMap { capture in
            DialStackUserUpdate(capture).flatMap { ids.contains($0.userId) ? (capture, $0) : nil }
        }
        let shown = 10
        for (capture, call) in calls.prefix(shown) {
            record(.note, "dialstack-api", "DialStack API \(call.summary) → \(capture.response.status)", nil)
        }
        if calls.count > shown {
            record(.note, "dialstack-api", "DialStack API: \(calls.count - shown) more calls for these users", nil)
        }
    }
}
