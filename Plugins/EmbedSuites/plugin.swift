import Foundation
import PackagePlugin

/// Compiles the shipped suites (`suites/<profile>/*.yaml`) into the target it is applied to, so that
/// a `ringcheck` binary copied or installed anywhere carries them: the `EmbedSuitesTool` writes one
/// Swift file holding every suite file's bytes. Its inputs are the folders and every suite file: a
/// folder's time changes when a file is added, removed or replaced (`sed -i`, most editors), not when
/// a file is written in place (`cat x > f.yaml`), which only a file input sees. SwiftPM (6.3) runs this
/// plugin only when it plans the build, and keeps the plan until the package's structure changes, so a
/// removed file would stay a "missing input" and fail every build: `Plugins/EmbedSuites/suites` is a
/// symlink to `suites/`, which puts the suites' tree in the plugin's folder that the package structure
/// covers, so adding or removing a suite file plans the build again with the new list.
@main
struct EmbedSuites: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let suites = context.package.directoryURL.appending(path: "suites")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSuiteFiles.swift")
        var inputs = [suites]
        if let walker = FileManager.default.enumerator(at: suites, includingPropertiesForKeys: nil) {
            for case let url as URL in walker
            where url.hasDirectoryPath || url.pathExtension == "yaml" || url.pathExtension == "yml" {
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
