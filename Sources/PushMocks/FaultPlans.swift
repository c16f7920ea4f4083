import Synchronization

/// The fault plans shared by all mocks (thread-safe wrapper around a `FaultBook`).
public final class FaultPlans: Sendable {
    private let book = Mutex(FaultBook())

    /// An empty set of plans.
    public init() {}

    /// Installs a plan after validating it; returns it with its ID.
    @discardableResult
    public func install(_ plan: FaultPlan) throws(FaultPlanError) -> FaultPlan {
        let errors = plan.validationErrors()
        guard errors.isEmpty else { throw FaultPlanError(messages: errors) }
        return book.withLock { $0.install(plan) }
    }

    /// Consumes one use of the first live plan matching the request.
    public func next(mock: MockProviderID, deviceToken: String?) -> AppliedFault? {
        book.withLock { $0.next(mock: mock, deviceToken: deviceToken) }
    }

    /// True while some installed plan has uses left (`next` returns nil for every request otherwise).
    public var hasLivePlans: Bool { book.withLock { $0.entries.contains { !$0.isExhausted } } }

    /// The installed plans with their consumption.
    public var entries: [FaultBook.Entry] { book.withLock { $0.entries } }

    /// Removes one plan.
    @discardableResult
    public func remove(id: String) -> Bool { book.withLock { $0.remove(id: id) } }

    /// Removes every plan.
    @discardableResult
    public func clear() -> Int { book.withLock { $0.clear() } }
}

/// Why a fault plan was refused.
public struct FaultPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each problem, naming the field.
    public var messages: [String]

    /// Creates a value from its parts.
    public init(messages: [String]) { self.messages = messages }

    public var description: String { "invalid fault plan: " + messages.joined(separator: "; ") }
}
