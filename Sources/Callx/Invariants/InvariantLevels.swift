import Conformance
import Reports

/// The levels of the requirements the invariants are charged to.
///
/// The engine passes the loaded catalogue so levels always follow `requirements.yaml`; without one
/// (for example `ringcheck check-payload` outside a checkout) the built-in table below is used. A test
/// keeps the table equal to the shipped catalogue.
public struct InvariantLevels: Sendable {
    /// Requirement ID → level.
    public var levels: [String: RequirementLevel]

    /// Levels read from `catalogue`, falling back to the built-in table for IDs it lacks.
    public init(catalogue: RequirementCatalogue? = nil) {
        var levels = Self.builtIn
        for requirement in catalogue?.requirements ?? [] { levels[requirement.id] = requirement.level }
        self.levels = levels
    }

    /// Levels from `catalogueLevels` (a catalogue's, by ID: `RequirementCatalogue.embeddedLevels(of:)`),
    /// falling back to the built-in table for IDs it lacks.
    public init(_ catalogueLevels: [String: RequirementLevel]) {
        levels = Self.builtIn.merging(catalogueLevels) { _, catalogue in catalogue }
    }

    /// The level of `id`; SHOULD for an ID nobody knows (an unknown rule never fails a backend).
    public subscript(id: String) -> RequirementLevel { levels[id] ?? .should }

    /// The Callx catalogue's levels for every requirement an invariant is charged to.
    public static let builtIn: [String: RequirementLevel] = [
        "CALLX-APNS-1": .must, "CALLX-APNS-2": .must, "CALLX-APNS-3": .must, "CALLX-APNS-4": .must,
        "CALLX-APNS-5": .must, "CALLX-APNS-6": .must, "CALLX-APNS-7": .should, "CALLX-APNS-8": .must,
        "CALLX-APNS-9": .should,
        "CALLX-FCM-1": .should, "CALLX-FCM-2": .must, "CALLX-FCM-3": .must, "CALLX-FCM-4": .must,
        "CALLX-FCM-5": .must, "CALLX-FCM-6": .must, "CALLX-FCM-7": .must, "CALLX-FCM-8": .must,
        "CALLX-FCM-9": .should,
        "CALLX-INV-1": .must, "CALLX-INV-2": .must, "CALLX-INV-3": .must, "CALLX-INV-4": .must,
        "CALLX-INV-5": .should, "CALLX-INV-6": .should,
        "CALLX-EXP-2": .must, "CALLX-OUTBOX-4": .must,
        "CALLX-EVT-2": .should, "CALLX-EVT-3": .should,
        "CALLX-SEC-1": .must, "CALLX-SEC-2": .should,
    ]
}
