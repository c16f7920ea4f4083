import Foundation
import PackagePlugin

/// Compiles a profile module's own suite (its `Suite/` folder: a link to `suites/<profile>/` for the shipped
/// profiles, a folder of its own for one outside them) into that module, so that a `ringcheck` binary copied
/// or installed anywhere carries it: the `EmbedSuitesTool` writes one Swift file declaring
/// `EmbeddedSuiteFiles.suite`, every suite file's bytes, which the profile hands to the engine as
/// `Profile.embeddedSuite`. Applied to each profile module in Package.swift, never to the engine.
///
/// Its inputs are the folders and every suite file: a folder's time changes when a file is added, removed
/// or replaced (`sed -i`, most editors), not when a file is written in place (`cat x > f.yaml`), which only
/// a file input sees. SwiftPM (6.3) runs this plugin only when it plans the build, and keeps the plan until
/// the package's structure changes, so a removed file would stay a "missing input" and fail every build:
/// `Plugins/EmbedSuites/suites` is a symlink to `suites/`, which puts the shipped suites' tree in the
/// plugin's folder that the package structure covers, so adding or removing a suite file plans the build
/// again with the new list (a module's own `Suite/` folder is in its target's folder, covered already).
@main
struct EmbedSuites: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        // The module's files under its `Suite/` folder (SwiftPM lists a linked folder's files as the target's).
        // As this command's inputs they are handled, not "unhandled files" of the target.
        let files = module.sourceFiles.map(\.url).filter { url in
            url.pathComponents.contains("Suite") && ["yaml", "yml"].contains(url.pathExtension)
        }
        guard let first = files.first else { return [] }
        var suite = first.deletingLastPathComponent()
        while suite.lastPathComponent != "Suite" { suite = suite.deletingLastPathComponent() }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSuiteFiles.swift")
        let inputs = [suite] + files
        return [
            .buildCommand(
                displayName: "Embedding \(target.name)'s suite (\(suite.path))",
                executable: try context.tool(named: "EmbedSuitesTool").url,
                arguments: [suite.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
