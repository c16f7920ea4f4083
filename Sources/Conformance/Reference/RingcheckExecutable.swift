import Foundation

/// The running ringcheck executable: what a reference started as a child process runs
/// (`ringcheck serve-reference …`), what `${RINGCHECK_EXECUTABLE}` in a target file names, where the suites
/// beside an installed binary are looked for.
///
/// ```swift
/// let arguments = [RingcheckExecutable.path(), "serve-reference", "--profile", "probe", "--port", "0"]
/// ```
package enum RingcheckExecutable {
    /// This executable's path (`/proc/self/exe`, else `argv[0]`).
    package static func path() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
