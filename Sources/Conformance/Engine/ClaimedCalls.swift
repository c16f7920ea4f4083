import Synchronization

/// Every call the scenarios of one engine made their own (`ScenarioRun.claimCall`), whichever scenario: a push tied
/// to its call by content (`PushView.carried`) that carries another scenario's call ID is that scenario's to judge,
/// and one carrying two claimed calls' IDs is no one's alone.
package final class ClaimedCalls: Sendable {
    private let ids = Mutex(Set<String>())

    package init() {}

    package func insert(_ id: String) { _ = ids.withLock { $0.insert(id) } }

    package func contains(_ id: String) -> Bool { ids.withLock { $0.contains(id) } }

    /// The calls claimed so far.
    package var all: Set<String> { ids.withLock { $0 } }
}
