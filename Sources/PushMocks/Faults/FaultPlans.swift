import Synchronization

/// The fault plans shared by all mocks (thread-safe wrapper around a `FaultBook`).
public final class FaultPlans: Sendable {
    private let book = Mutex(FaultBook())
    /// Whether some plan has uses left, set under the lock after every change and read without it: every
    /// push asks, and almost always while no plan is installed (a lock per push for that answer).
    private let live = Atomic<Bool>(false)

    /// An empty set of plans.
    public init() {}

    /// Installs a plan after validating it; returns it with its ID.
    @discardableResult
    public func install(_ plan: FaultPlan) throws(FaultPlanError) -> FaultPlan {
        let errors = plan.validationErrors()
        guard errors.isEmpty else { throw FaultPlanError(messages: errors) }
        return changing { $0.install(plan) }
    }

    /// Consumes one use of the first live plan matching the request.
    public func next(mock: MockProviderID, deviceToken: String?) -> AppliedFault? {
        guard live.load(ordering: .acquiring) else { return nil }
        return changing { $0.next(mock: mock, deviceToken: deviceToken) }
    }

    /// True while some installed plan has uses left (`next` returns nil for every request otherwise).
    public var hasLivePlans: Bool { live.load(ordering: .acquiring) }

    /// The installed plans with their consumption.
    public var entries: [FaultBook.Entry] { book.withLock { $0.entries } }

    /// Removes one plan.
    @discardableResult
    public func remove(id: String) -> Bool { changing { $0.remove(id: id) } }

    /// Removes every plan.
    @discardableResult
    public func clear() -> Int { changing { $0.clear() } }

    /// Runs `change` on the book under its lock and brings `live` up to date before the lock is released.
    private func changing<T>(_ change: (inout FaultBook) -> T) -> T {
        book.withLock { book in
            let result = change(&book)
            live.store(book.entries.contains { !$0.isExhausted }, ordering: .releasing)
            return result
        }
    }
}

/// Why a fault plan was refused.
public struct FaultPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each problem, naming the field.
    public var messages: [String]

    /// Creates a value from its parts.
    public init(messages: [String]) { self.messages = messages }

    public var description: String { "invalid fault plan: " + messages.joined(separator: "; ") }
}
