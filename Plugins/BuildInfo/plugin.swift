import Foundation
import PackagePlugin

/// Writes the commit a `ringcheck` binary is built from into the module it is applied to, for
/// `ringcheck --version` and the reports. A prebuild command runs before every build, so the commit
/// follows `git checkout` without a clean build; `scripts/build-info.sh` rewrites its output only when
/// the text changes, so an unchanged commit recompiles nothing. Outside a git checkout (a source
/// tarball) it uses `RINGCHECK_COMMIT` from the environment, else `unknown`.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = context.package.directoryURL.appending(path: "scripts/build-info.sh")
        return [
            .prebuildCommand(
                displayName: "Recording the commit ringcheck is built from",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
