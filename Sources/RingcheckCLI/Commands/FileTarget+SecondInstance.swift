import Conformance
import PushMocks

extension FileTarget {
    /// The file's backend as two instances started from its lifecycle (`lifecycle.instances: 2`): `first`
    /// (the file with the run's variables filled in) runs every scenario but those that must run alone
    /// (`Scenario.runsAlone`), which run one at a time on the second, filled in again from `loaded` with a
    /// port and a state folder of its own, logging beside `log` (`EmbeddedReference.restartLog`). Both
    /// start at once, wired to `mocks`; `cleanup` stops them.
    ///
    /// The accounts are shared out so that no account is in use on both instances at once: with a pool of
    /// N slots the first instance runs N - 1 scenarios at once and the second holds the last slot; with
    /// one account per user both instances use it (each keeps its own state, and the one on the second
    /// runs alone there). Accounts the file has ringcheck create (`accounts:`) are made where they are used:
    /// slots 1 to N - 1 in the first instance, slot N alone in the second.
    static func withSecondInstance(
        _ loaded: TargetFile, first file: TargetFile, mocks: MockStack, log: String, cleanup: RunCleanup
    ) async throws -> RunBackend {
        var secondFile = try await fillingRunVariables(loaded, cleanup: cleanup)
        // Two free ports asked for one after the other are almost always different; make sure.
        for _ in 0..<5 where secondFile.baseURL == file.baseURL {
            secondFile = try await fillingRunVariables(loaded, cleanup: cleanup)
        }
        guard secondFile.baseURL != file.baseURL else {
            throw TargetUnavailable(message: "no second free loopback port for the backend's second instance")
        }
        let pool = file.poolSize
        let provisioned = pool > 1 && file.users.isEmpty && file.accountProvisioning != nil
        let secondLog = EmbeddedReference.restartLog(log)
        async let secondStart = startInstance(
            secondFile, mocks: mocks, log: secondLog, accountSlots: provisioned ? pool...pool : nil, cleanup: cleanup)
        let (target, lifecycle) = try await startInstance(
            file, mocks: mocks, log: log, accountSlots: provisioned ? 1...(pool - 1) : nil, cleanup: cleanup)
        var (second, _) = try await secondStart
        second.name += " (second instance, for the scenarios that must run alone)"
        var main = target
        if pool > 1 && !provisioned {
            main.accountSlots = pool - 1
            second = second.holdingSlot(pool - 1)
        }
        return RunBackend(
            target: main, mocks: mocks, maxConcurrency: main.accountSlots, lifecycle: lifecycle, restartTarget: second)
    }
}

extension Target {
    /// The target with one slot of accounts, the one `slot` names of its pool: what a second instance of a
    /// backend runs its scenarios as, one at a time, while the first holds the other slots.
    func holdingSlot(_ slot: Int) -> Target {
        var out = self
        let accounts = self.accounts
        out.accounts = { name, _ in accounts(name, slot) }
        if let credentials {
            out.credentials = { name, _ in try await credentials(name, slot) }
        }
        out.accountSlots = 1
        return out
    }
}
