import Conformance
import ReferenceBackend

/// A profile's embedded reference backend as the CLI starts it: what `ringcheck run --profile NAME`
/// tests when no `--target` is given, and its defect switches (`--reference-defect`).
struct ProfileReference: Sendable {
    var profile: any Profile
    /// For `--reference-defect` validation and help.
    var defectNames: [String]
    /// Starts mocks + the embedded reference with these defects, accounts for `runs` runs of `userNames`.
    var start:
        @Sendable (_ defects: [String], _ runs: Int, _ userNames: [String], _ cleanup: RunCleanup) async throws ->
            EmbeddedReference
    /// The same, logging to `log` (the target's `backendLog`) and, when `asChildProcess`, as a
    /// `serve-reference` child (`--reference-process`); with `restartInstance`, a second instance for
    /// the scenarios that restart the backend (`EmbeddedReference.restartTarget`); nil when the
    /// reference can do none of it.
    var startLogged:
        (
            @Sendable (
                _ defects: [String], _ runs: Int, _ userNames: [String], _ log: String, _ asChildProcess: Bool,
                _ restartInstance: Bool, _ cleanup: RunCleanup
            ) async throws -> EmbeddedReference
        )? = nil
}

/// Every profile's embedded reference, one line each (a profile registered in `Profiles.all` without a
/// line here can only be run with `--target`).
enum ProfileReferences {
    static let all: [ProfileReference] = [
        ProfileReference(
            profile: CallxProfile(), defectNames: Defect.allCases.map(\.name),
            start: { defects, runs, users, cleanup in
                try await EmbeddedReference.start(
                    defects: Defect.parse(defects).defects, runs: runs, userNames: users, cleanup: cleanup)
            },
            startLogged: { defects, runs, users, log, asChildProcess, restartInstance, cleanup in
                try await EmbeddedReference.start(
                    defects: Defect.parse(defects).defects, runs: runs, userNames: users, log: log,
                    asChildProcess: asChildProcess, restartInstance: restartInstance, cleanup: cleanup)
            }),
        ProfileReference(
            profile: DialStackProfile(), defectNames: EmbeddedWakeUpReference.defectNames,
            start: { defects, runs, users, cleanup in
                try await EmbeddedWakeUpReference.start(
                    defects: defects, runs: runs, userNames: users, cleanup: cleanup)
            }),
        ProfileReference(
            profile: PushServiceProfile(), defectNames: EmbeddedPushService.defectNames,
            start: { defects, runs, users, cleanup in
                try await EmbeddedPushService.start(defects: defects, runs: runs, userNames: users, cleanup: cleanup)
            }),
        ProfileReference(
            profile: OneSignalProfile(), defectNames: EmbeddedOneSignalKit.defectNames,
            start: { defects, runs, users, cleanup in
                try await EmbeddedOneSignalKit.start(defects: defects, runs: runs, userNames: users, cleanup: cleanup)
            }),
    ]

    /// The reference of profile `name`, if it has one.
    static func named(_ name: String) -> ProfileReference? { all.first { $0.profile.name == name } }
}
