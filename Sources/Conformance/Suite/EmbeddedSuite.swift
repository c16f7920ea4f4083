import Foundation

/// One profile's suite as compiled into its module: every `*.yaml` / `*.yml` file of the module's `Suite/`
/// folder by its path relative to it (`suite.yaml`, `basic.yaml`), written by the EmbedSuites build-tool
/// plugin as the module's `EmbeddedSuiteFiles.suite`. A profile hands it to the engine as
/// `Profile.embeddedSuite`, which reads it as `builtin:<profile>`.
///
/// ```swift
/// extension PagerProfile {
///     var embeddedSuite: EmbeddedSuite { EmbeddedSuiteFiles.suite }   // generated from Sources/Pager/Suite/
/// }
/// ```
public struct EmbeddedSuite: Sendable {
    /// Each file's bytes by its path relative to the suite folder.
    public let files: [String: [UInt8]]

    /// A suite of these files (none: the profile embeds no suite).
    public init(files: [String: [UInt8]] = [:]) { self.files = files }

    /// The suite the plugin generates: each file's path and its bytes in base64.
    public init(base64Files: [(path: String, base64: String)]) {
        var files: [String: [UInt8]] = [:]
        for file in base64Files { files[file.path] = Data(base64Encoded: file.base64).map { [UInt8]($0) } ?? [] }
        self.files = files
    }
}
