import Foundation

/// Paths of the repository's suites and the seed documents, found from this file's location.
enum ConformanceFixtures {
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var callxSuite: String { repositoryRoot + "/suites/callx" }

    /// The Callx seed, when the shared seeds folder is on this machine: `RINGCHECK_SEEDS`, else the
    /// `shared/seeds` folder beside the checkout (as developers and CI have it).
    static var callxSeed: String? {
        let candidates = [
            ProcessInfo.processInfo.environment["RINGCHECK_SEEDS"].map { $0 + "/callx-backend-reference.txt" },
            repositoryRoot + "/../shared/seeds/callx-backend-reference.txt",
            "/work/shared/seeds/callx-backend-reference.txt",
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
