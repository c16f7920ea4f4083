import AllProfiles
import Conformance
import Foundation

/// `ringcheck init-target`: write a commented target file to start from.
struct InitTargetCommand: RingcheckCommand {
    /// Computed, as every command's is, so what it reads of the registry in force is read at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "init-target",
            abstract: "Write a commented target file describing a backend under test, for 'run --target'.",
            discussion: """
                The file names the backend's base URL and TLS trust, how test users a (caller), b (callee) and
                c (in no call) sign in (static headers, a login request, or a command printing a token), where
                requests carry the installation, how each operation maps onto the backend's API where it differs
                from the reference design, the capabilities it declares, where ringcheck's mocks listen, and how
                the backend is started and stopped. As written it describes 'ringcheck serve-reference' on port
                8080; edit it for your backend. It never overwrites a file unless --force is given.
                """,
            arguments: [ArgumentSpec(name: "PATH", help: "Where to write the file (default: ringcheck-target.yaml).")],
            options: [.flag("force", help: "Overwrite an existing file.")],
            examples: [
                "ringcheck init-target my-backend.yaml && $EDITOR my-backend.yaml",
                "ringcheck run --target my-backend.yaml",
            ])
    }

    var path: String
    var force: Bool

    init(arguments: ParsedArguments) throws {
        if arguments.positionals.count > 1 {
            throw UsageError(message: "give one PATH, not \(arguments.positionals.count)", command: "init-target")
        }
        path = arguments.positionals.first ?? "ringcheck-target.yaml"
        force = arguments.flag("force")
    }

    func run() async throws -> ExitCode {
        if FileManager.default.fileExists(atPath: path) && !force {
            throw ConfigurationError(message: "\(path) exists; pass --force to overwrite it")
        }
        do { try TargetFile.template.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw ConfigurationError(message: "cannot write \(path): \(error.localizedDescription)")
        }
        Console.out("Wrote \(path): edit it for your backend, then run 'ringcheck run --target \(path)'.")
        return .success
    }
}
