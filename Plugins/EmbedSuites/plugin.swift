import Foundation
import PackagePlugin

/// Compiles the shipped suites (`suites/<profile>/*.yaml`) into the target it is applied to, so that
/// a `ringcheck` binary copied or installed anywhere carries them: the `EmbedSuitesTool` writes one
/// Swift file holding every suite file's bytes. Its inputs are the folders, not the files: SwiftPM
/// tracks a folder input's whole tree, so a changed, added or removed suite file is embedded by the
/// next `swift build` (a removed file listed as an input would fail the build until a clean one).
@main
struct EmbedSuites: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let suites = context.package.directoryURL.appending(path: "suites")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSuiteFiles.swift")
        var inputs = [suites]
        if let walker = FileManager.default.enumerator(at: suites, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.hasDirectoryPath {
                inputs.append(url)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the suites of \(suites.path)",
                executable: try context.tool(named: "EmbedSuitesTool").url,
                arguments: [suites.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
