import Foundation
import PushMocks

/// The mocks and an embedded reference backend wired to them, described as a run's target: what a
/// `ReferenceKit` starts for `ringcheck run` without `--target` (and for `load`, `call`). A kit that can
/// restart its backend may start a second instance (its own database, port and log, the same mocks and
/// accounts) for the scenarios that restart theirs, so they run beside the others instead of after them all.
///
/// ```swift
/// let mocks = try await MockStack.start()
/// await cleanup.add { await mocks.stop() }
/// let server = try ProbeServer(providers: mocks.settings.providerSettings(bundleID: "app"))
/// let target = Target(
///     name: EmbeddedReference.name("embedded probe reference", defects: defects), baseURL: server.baseURL,
///     accounts: { EmbeddedReference.account($0, run: $1) }, capabilities: [.faults], appId: "app")
/// return EmbeddedReference(mocks: mocks, target: target)
/// ```
package struct EmbeddedReference {
    package let mocks: MockStack
    package let target: Target
    /// The child process's lifecycle when the backend runs as one (`ringcheck load` watches its CPU and memory).
    package var lifecycle: BackendLifecycle?
    /// The second instance, for the scenarios that restart the backend (`Scenario.runsAlone`): a
    /// restart here disturbs no other scenario. Nil when the caller asked for one instance.
    package var restartTarget: Target?

    package init(mocks: MockStack, target: Target, lifecycle: BackendLifecycle? = nil, restartTarget: Target? = nil) {
        self.mocks = mocks
        self.target = target
        self.lifecycle = lifecycle
        self.restartTarget = restartTarget
    }

    /// Ring time of a call that is not about expiry: long enough that no scenario's call expires before
    /// its answer however busy the machine is. Scenarios that wait for expiry (`needs: [shortRing]`) ask
    /// for `Target.shortRingSeconds` through the create body's `ringSeconds` (`Target.shortRingField`).
    package static let ringSeconds = 60
    /// Events kept per feed: small enough that the retention-gap scenario overflows it quickly, larger
    /// than any other scenario's feed.
    package static let eventRetention = 40

    /// The backend users that play `userNames` in `runs` runs (`account`), with handles `<handlePrefix>:<userId>`,
    /// each made by `user` (a reference's own user type, e.g. `BackendUser.init`).
    package static func users<User>(
        runs: Int, userNames: [String], handlePrefix: String,
        _ user: (_ userId: String, _ displayName: String, _ handle: String, _ bearerToken: String) -> User
    ) -> [User] {
        var users: [User] = []
        for run in 0..<max(runs, 1) {
            for name in userNames {
                let a = account(name, run: run)
                users.append(
                    user(a.userId, "User \(name.uppercased()) \(run)", "\(handlePrefix):\(a.userId)", a.bearerToken))
            }
        }
        return users
    }

    /// A target's name: `base`, and the defects switched on, by name.
    package static func name(_ base: String, defects: Set<some ReferenceKitDefect>) -> String {
        base + (defects.isEmpty ? "" : " (defects: \(defects.sortedNames.joined(separator: ", ")))")
    }

    /// The account that plays scenario user `name` in run `run`.
    package static func account(_ name: String, run: Int) -> TargetUser {
        TargetUser(userId: "u\(run)-\(name)", bearerToken: "token-u\(run)-\(name)")
    }

    /// The log of the second instance beside `log`: `backend.log` → `backend-restart-instance.log`.
    package static func restartLog(_ log: String) -> String {
        let base = (log as NSString).deletingPathExtension
        let ext = (log as NSString).pathExtension
        return base + "-restart-instance" + (ext.isEmpty ? "" : "." + ext)
    }
}
