import Foundation

/// Paths of the repository's suites and the seed documents, found from this file's location.
enum ConformanceFixtures {
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var callxSuite: String { repositoryRoot + "/suites/callx" }

    /// The Callx seed, when the shared seeds folder is on this machine.
    static var callxSeed: String? { seed("callx-backend-reference.txt") }

    /// A seed of the shared seeds folder, when it is on this machine: `RINGCHECK_SEEDS`, else the
    /// `shared/seeds` folder beside the checkout (as developers and CI have it).
    static func seed(_ file: String) -> String? {
        let candidates = [
            ProcessInfo.processInfo.environment["RINGCHECK_SEEDS"].map { $0 + "/" + file },
            repositoryRoot + "/../shared/seeds/" + file,
            "/work/shared/seeds/" + file,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
