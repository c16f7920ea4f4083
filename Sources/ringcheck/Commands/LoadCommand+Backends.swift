import Conformance
import Foundation
import PushMocks

#if canImport(Glibc)
    import Glibc
#endif

extension LoadCommand {
    /// Starts the mocks and the embedded reference of `profile` with its load users (`ProfileLoad.embeddedCallers`
    /// and `embeddedCallees`): in process, or as a child process (`--reference-process`, where its kit
    /// `startsLogged`).
    func startEmbedded(_ profile: String, cleanup: RunCleanup) async throws -> LoadBackend {
        guard let load = Profiles.named(profile)?.load, let kit = ReferenceKits.named(profile) else {
            throw UsageError(
                message: "profile '\(profile)' has no embedded reference: give --target FILE", command: "load")
        }
        let start = LoadEmbeddedStart(
            callers: load.embeddedCallers, callees: load.embeddedCallees,
            log: asChildProcess ? reportDir + "/backend.log" : nil, asChildProcess: asChildProcess)
        let embedded = try await kit.startForLoad(defectNames: defectNames, start, cleanup: cleanup)
        let storage = kit.storageNote.map { ", " + $0 } ?? ""
        var watched: WatchedProcess?
        if asChildProcess, let pid = await embedded.lifecycle?.pid {
            watched = WatchedProcess(pid: pid, label: "reference backend (child process\(storage))")
        } else if !asChildProcess {
            watched = WatchedProcess(
                pid: getpid(),
                label: "ringcheck itself (embedded reference in process\(storage); includes the mocks and the driver)")
        }
        return LoadBackend(
            load: load, target: embedded.target, mocks: embedded.mocks,
            callers: start.callers.compactMap { embedded.target.accounts($0, 0) },
            callees: start.callees.compactMap { embedded.target.accounts($0, 0) }, watched: watched)
    }

    /// Starts the mocks (and the backend, when the file's lifecycle says how) for `--target FILE`: user
    /// a calls b (and c when the file declares it); for a profile whose units reach every user
    /// (`ProfileLoad.targetUsersAreCallees`), a, b and c are all reached.
    func startTarget(_ path: String, cleanup: RunCleanup) async throws -> LoadBackend {
        let file = try FileTarget.load(path, users: .call(caller: "a", callee: "b"))
        let fileProfile = file.profile ?? Profiles.defaultProfile.name
        if let profile, profile != fileProfile {
            throw UsageError(
                message: "\(path) is for profile '\(fileProfile)', not --profile \(profile)", command: "load")
        }
        guard let load = Profiles.named(fileProfile)?.load else {
            throw UsageError(
                message:
                    "\(path) is for profile '\(fileProfile)': load mode supports \(Self.profilesSentence("and"))",
                command: "load")
        }
        let backend = try await FileTarget.start(
            file, announce: true, log: reportDir + "/backend.log", cleanup: cleanup)
        var target = backend.target
        var callers: [TargetUser] = []
        var callees: [TargetUser] = []
        for role in ["a", "b", "c"] {
            guard var user = target.accounts(role, 0) else { continue }
            if let credentials = target.credentials { user.authHeaders = try await credentials(role, 0) }
            if role == "a" { callers.append(user) } else { callees.append(user) }
        }
        target.credentials = nil
        var watched: WatchedProcess?
        if let pid = await backend.lifecycle?.pid {
            watched = WatchedProcess(pid: pid, label: "backend (child process started by the target file's lifecycle)")
        }
        if load.targetUsersAreCallees {
            callees = callers + callees
            callers = []
        }
        return LoadBackend(
            load: load, target: target, mocks: backend.mocks, callers: callers, callees: callees, watched: watched)
    }
}
