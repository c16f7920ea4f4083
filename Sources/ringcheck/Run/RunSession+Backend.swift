import Conformance

extension RunSession {
    /// Starts what the scenarios run against: the target file's backend, or the profile's reference kit
    /// beside the mocks. Nil when it could not start: the inconclusive run's reports are already written
    /// and what started is stopped.
    func startBackend(_ cleanup: RunCleanup) async throws -> RunBackend? {
        if let targetFile = command.targetFile {
            do {
                return try await FileTarget.start(
                    targetFile, announce: !command.quiet, log: command.reportDir + "/backend.log", cleanup: cleanup)
            } catch {
                await cleanup.run()
                _ = stoppedBeforeScenarios("\(error)", target: targetFile.name)
                return nil
            }
        }
        guard let (kit, defects) = reference else { return nil }
        if command.referenceProcess, !kit.startsLogged {
            await cleanup.run()
            throw UsageError(
                message: "--reference-process: the \(profile.name) reference cannot run as a child process",
                command: RunCommand.configuration.name)
        }
        do {
            let embedded = try await kit.startEmbedded(defectNames: defects, embeddedStart(kit), cleanup: cleanup)
            return RunBackend(target: embedded.target, mocks: embedded.mocks, restartTarget: embedded.restartTarget)
        } catch {
            await cleanup.run()
            _ = stoppedBeforeScenarios(
                "cannot start the mocks and the reference backend: \(error)",
                target: "embedded reference backend"
                    + (defects.isEmpty ? "" : " (defects: \(defects.sorted().joined(separator: ", ")))"))
            return nil
        }
    }

    /// What the kit is asked for: accounts for every run of every scenario user and, where it can, the
    /// backend log in the report folder, `--reference-process` and a second instance for the scenarios
    /// that restart the backend.
    func embeddedStart(_ kit: any ReferenceKit) -> EmbeddedStart {
        var userNames: [String] = []
        for s in scenarios { for u in s.allUsers where !userNames.contains(u) { userNames.append(u) } }
        let logged = kit.startsLogged
        return EmbeddedStart(
            runs: scenarios.count * command.repeatCount, userNames: userNames,
            log: logged ? command.reportDir + "/backend.log" : nil, asChildProcess: command.referenceProcess,
            restartInstance: logged && scenarios.contains(where: \.runsAlone))
    }
}
