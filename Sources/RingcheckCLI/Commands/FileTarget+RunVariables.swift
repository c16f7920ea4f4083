import Conformance
import Foundation
import Processes

extension FileTarget {
    /// `file` with the run's `${RINGCHECK_…}` variables filled in (`TargetRunVariables`): ringcheck's
    /// own path, and when the file names them a free loopback port (and a second one) and a fresh state
    /// folder (removed by `cleanup`).
    static func fillingRunVariables(_ file: TargetFile, cleanup: RunCleanup) async throws -> TargetFile {
        let used = file.runVariablesUsed
        var values: [String: String] = [TargetRunVariables.executable: RingcheckExecutable.path()]
        if used.contains(TargetRunVariables.backendPort) {
            guard let port = LoopbackPort.free() else {
                throw TargetUnavailable(message: "no free loopback port for ${\(TargetRunVariables.backendPort)}")
            }
            values[TargetRunVariables.backendPort] = String(port)
        }
        if used.contains(TargetRunVariables.backendSecondPort) {
            // Two free ports asked for one after the other are almost always different; make sure.
            let first = values[TargetRunVariables.backendPort]
            let port = (0..<5).lazy.compactMap { _ in LoopbackPort.free() }.first { String($0) != first }
            guard let port else {
                throw TargetUnavailable(
                    message: "no second free loopback port for ${\(TargetRunVariables.backendSecondPort)}")
            }
            values[TargetRunVariables.backendSecondPort] = String(port)
        }
        if used.contains(TargetRunVariables.stateDirectory) {
            let dir = FileManager.default.temporaryDirectory
                .appendingPathComponent("ringcheck-backend-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw TargetUnavailable(message: "cannot create the backend's state folder \(dir): \(error)")
            }
            await cleanup.add { try? FileManager.default.removeItem(atPath: dir) }
            values[TargetRunVariables.stateDirectory] = dir
        }
        return file.filling(TargetRunVariables(values))
    }
}
