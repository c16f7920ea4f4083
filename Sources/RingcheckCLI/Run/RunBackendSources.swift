import Conformance

/// What `ringcheck run` runs against, as its options chose it: the backend a target file describes, or
/// the profile's embedded reference with the `--reference-defect`s to switch on.
enum RunBackendChoice {
    case file(TargetFile)
    case reference(kit: any ReferenceKit, defects: [String])
}

/// `run --target FILE`: the backend the target file describes, started through its lifecycle with the
/// mocks its `mocks:` section asks for (`FileTarget.start`); stopped by `cleanup`.
struct FileTargetBackend: RunBackendSource {
    let file: TargetFile
    /// Whether a lifecycle of `instances: 2` starts its second instance (the run has scenarios that must
    /// run alone).
    var secondInstance = false
    /// Whether the mocks' settings are printed (not with `-q`).
    let announce: Bool
    /// Where a started backend's output goes (`<report-dir>/backend.log`).
    let log: String
    let cleanup: RunCleanup

    var unstartedTargetName: String { file.name }

    func start() async throws -> RunBackend {
        try await FileTarget.start(
            file, announce: announce, log: log, secondInstance: secondInstance, cleanup: cleanup)
    }

    func failureCause(_ error: any Error) -> String { "\(error)" }
}

/// `run` without `--target`: the profile's embedded reference with `defects` switched on, beside the
/// mocks (`ReferenceKit.startEmbedded`); stopped by `cleanup`.
struct ReferenceKitBackend: RunBackendSource {
    let kit: any ReferenceKit
    let defects: [String]
    let embeddedStart: EmbeddedStart
    let cleanup: RunCleanup

    var unstartedTargetName: String {
        "embedded reference backend"
            + (defects.isEmpty ? "" : " (defects: \(defects.sorted().joined(separator: ", ")))")
    }

    func start() async throws -> RunBackend {
        let embedded = try await kit.startEmbedded(defectNames: defects, embeddedStart, cleanup: cleanup)
        return RunBackend(target: embedded.target, mocks: embedded.mocks, restartTarget: embedded.restartTarget)
    }

    func failureCause(_ error: any Error) -> String { "cannot start the mocks and the reference backend: \(error)" }
}
