/// The installed fault plans and how much of each is left: a pure state machine.
///
/// Events are `install`, `remove`, `clear` and `next` (a request arrives); `next` picks the first
/// installed plan, in installation order, that matches and still has uses left, and consumes one use.
public struct FaultBook: Sendable, Equatable {
    /// One installed plan with its consumption.
    public struct Entry: Sendable, Equatable {
        public var plan: FaultPlan
        /// Uses left; nil for a plan without a count.
        public var remaining: Int?
        /// How many requests it has affected.
        public var applied: Int

        /// True when a counted plan is used up.
        public var isExhausted: Bool { remaining.map { $0 <= 0 } ?? false }
    }

    /// The plans in installation order, including exhausted ones (until removed or cleared).
    public private(set) var entries: [Entry] = []
    private var nextNumber = 1

    /// An empty book.
    public init() {}

    /// Installs `plan` (assigning an ID when it has none; replacing a plan with the same ID) and
    /// returns it as installed.
    @discardableResult
    public mutating func install(_ plan: FaultPlan) -> FaultPlan {
        var plan = plan
        if plan.id == nil || plan.id?.isEmpty == true {
            while entries.contains(where: { $0.plan.id == "f\(nextNumber)" }) { nextNumber += 1 }
            plan.id = "f\(nextNumber)"
            nextNumber += 1
        }
        let entry = Entry(plan: plan, remaining: plan.times, applied: 0)
        if let i = entries.firstIndex(where: { $0.plan.id == plan.id }) {
            entries[i] = entry
        } else {
            entries.append(entry)
        }
        return plan
    }

    /// Consumes one use of the first live plan matching a request to `mock` for `deviceToken`.
    public mutating func next(mock: MockProviderID, deviceToken: String?) -> AppliedFault? {
        guard
            let i = entries.firstIndex(where: {
                !$0.isExhausted && $0.plan.matches(mock: mock, deviceToken: deviceToken)
            })
        else { return nil }
        entries[i].applied += 1
        if let r = entries[i].remaining { entries[i].remaining = r - 1 }
        return AppliedFault(plan: entries[i].plan, ordinal: entries[i].applied)
    }

    /// Removes the plan with `id`; false when there is none.
    @discardableResult
    public mutating func remove(id: String) -> Bool {
        guard let i = entries.firstIndex(where: { $0.plan.id == id }) else { return false }
        entries.remove(at: i)
        return true
    }

    /// Removes every plan and returns how many there were.
    @discardableResult
    public mutating func clear() -> Int {
        defer { entries.removeAll() }
        return entries.count
    }
}
