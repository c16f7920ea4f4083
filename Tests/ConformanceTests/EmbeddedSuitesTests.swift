import Foundation
import Testing

@testable import AllProfiles
@testable import Conformance

/// The suites compiled into the binary (the EmbedSuites build-tool plugin, applied to each profile module) are
/// the files of `suites/`, byte for byte, each in its profile's module, and load as the same suites.
@Suite struct EmbeddedSuitesTests {
    /// Every `*.yaml` / `*.yml` under the repository's `suites/`, relative to it.
    static func diskFiles() -> [String] {
        let root = ConformanceFixtures.repositoryRoot + "/suites"
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let name = walker?.nextObject() as? String {
            if name.hasSuffix(".yaml") || name.hasSuffix(".yml") { files.append(name) }
        }
        return files.sorted()
    }

    @Test func everySuiteFileIsEmbeddedUnchanged() throws {
        let files = Self.diskFiles()
        #expect(files.count > 20, "\(files)")
        let embedded = Profiles.all.flatMap { profile in
            profile.embeddedSuite.files.keys.map { profile.name + "/" + $0 }
        }
        #expect(embedded.sorted() == files, "rebuild: the embedded suites are not those of suites/")
        for file in files {
            let disk = try #require(
                FileManager.default.contents(atPath: ConformanceFixtures.repositoryRoot + "/suites/" + file))
            let contents = EmbeddedSuites.contents(EmbeddedSuites.scheme + file, in: Profiles.registry)
            #expect(contents == [UInt8](disk), "\(file) differs")
        }
        #expect(EmbeddedSuites.names == Profiles.names.sorted())
    }

    /// Each shipped profile's module embeds its own suite: its `Suite/` folder is a link to `suites/<name>/`, and
    /// a registry of that profile alone finds its suite and no other.
    @Test(arguments: Profiles.all.map(\.name))
    func eachProfileModuleEmbedsItsOwnSuite(profile name: String) throws {
        let profile = try #require(Profiles.named(name))
        let module = String(describing: type(of: profile)).replacingOccurrences(of: "Profile", with: "")
        let link = ConformanceFixtures.repositoryRoot + "/Sources/\(module)/Suite"
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../../suites/\(name)")
        let alone = ProfileRegistry([profile])
        #expect(EmbeddedSuites.names(in: alone) == [name])
        #expect(profile.embeddedSuite.files["suite.yaml"] != nil)
        let suite = try Suite.load(directory: EmbeddedSuites.scheme + name, profiles: alone)
        #expect(suite.catalogue.suite.profile == name)
    }

    /// The EmbedSuites plugin's folder holds a symlink to `suites/`: through it SwiftPM's package structure
    /// covers the suites' tree, so adding or removing a suite file plans the build again (without it a removed
    /// file stays a "missing input" of the embedding and fails every build until the plan is redone).
    @Test func thePluginFolderLinksToTheSuites() throws {
        let link = ConformanceFixtures.repositoryRoot + "/Plugins/EmbedSuites/suites"
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        #expect(destination == "../../suites")
        let through = try FileManager.default.contentsOfDirectory(atPath: link).sorted()
        let direct = try FileManager.default.contentsOfDirectory(atPath: ConformanceFixtures.repositoryRoot + "/suites")
        #expect(through == direct.sorted())
    }

    @Test(arguments: Profiles.names)
    func anEmbeddedSuiteLoadsAsItsFolderDoes(profile: String) throws {
        let dir = try #require(EmbeddedSuites.directory(profile))
        #expect(dir == "builtin:" + profile)
        let embedded = try Suite.load(directory: dir)
        let disk = try Suite.load(directory: ConformanceFixtures.repositoryRoot + "/suites/" + profile)
        #expect(embedded.catalogue == disk.catalogue)
        #expect(embedded.scenarios.map(\.id) == disk.scenarios.map(\.id))
        #expect(embedded.scenarios.map(\.steps) == disk.scenarios.map(\.steps))
        // Named as built in, not as a file on disk.
        #expect(embedded.scenarios.allSatisfy { $0.file.hasPrefix("builtin:\(profile)/") })
    }

    @Test func anUnknownBuiltInSuiteOrFileIsAClearError() throws {
        #expect(EmbeddedSuites.directory("nosuch") == nil)
        let error = #expect(throws: SuiteLoadError.self) { try Suite.load(directory: "builtin:nosuch") }
        let message = error?.description ?? ""
        #expect(message.contains("builtin:nosuch/suite.yaml:1:1: no such file is built in"), "\(message)")
    }
}
