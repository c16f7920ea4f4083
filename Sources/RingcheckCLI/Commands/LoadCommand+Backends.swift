import AllProfiles
import Conformance
import Foundation
import PushMocks

#if canImport(Glibc)
    import Glibc
#endif

extension LoadCommand {
    /// Starts the mocks and the embedded reference of `profile`: as a child process (the default), through
    /// the kit's own child process with the load users (`ProfileLoad.embeddedCallers` and `embeddedCallees`)
    /// where it `startsLogged`, else through its `processTargetFile` (its users are the file's); or in
    /// process (`--reference-in-process`) with the load users.
    func startEmbedded(_ profile: String, cleanup: RunCleanup) async throws -> LoadBackend {
        guard let load = Profiles.named(profile)?.load, let kit = ReferenceKits.registered.named(profile) else {
            throw UsageError(
                message: "profile '\(profile)' has no embedded reference: give --target FILE", command: "load")
        }
        if asChildProcess && !kit.startsLogged {
            return try await startReferenceProcess(kit, load: load, cleanup: cleanup)
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

    /// Starts the mocks and `kit`'s reference as a `serve-reference` child process through its
    /// `processTargetFile`, whose users must answer `load.targetUserNeeds` as a target file's do.
    func startReferenceProcess(_ kit: any ReferenceKit, load: any ProfileLoad, cleanup: RunCleanup) async throws
        -> LoadBackend
    {
        let profile = kit.name
        guard let text = kit.processTargetFile(defects: defectNames) else {
            throw UsageError(
                message: "the \(profile) reference cannot run as a child process: give --reference-in-process",
                command: "load")
        }
        let file: TargetFile
        do {
            file = try TargetFile.load(
                text: text, file: "<the \(profile) reference as a child process>", users: load.targetUserNeeds)
        } catch { throw ConfigurationError(message: "the reference's target has problems:\n\(error)") }
        return try await start(
            file, load: load, announce: false,
            label: "reference backend (child process, serve-reference --profile \(profile))", cleanup: cleanup)
    }

    /// Starts the mocks (and the backend, when the file's lifecycle says how) for `--target FILE`: the file
    /// must declare the users its profile's load plays (`ProfileLoad.targetUserNeeds`: callx's a and b); user
    /// a calls b (and c when the file declares it), or, for a profile whose units reach every user
    /// (`ProfileLoad.targetUsersAreCallees`), every user the file declares is reached.
    func startTarget(_ path: String, cleanup: RunCleanup) async throws -> LoadBackend {
        let none = TargetUserNeeds.users([], why: "")
        var file = try FileTarget.load(path, users: none)
        let fileProfile = file.profile ?? Profiles.defaultProfile.name
        let needs = Profiles.named(fileProfile)?.load?.targetUserNeeds ?? none
        if needs != none { file = try FileTarget.load(path, users: needs) }
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
        return try await start(
            file, load: load, announce: true,
            label: "backend (child process started by the target file's lifecycle)", cleanup: cleanup)
    }

    /// Starts the mocks and the backend of a loaded target `file` for `load` (announcing the mock settings
    /// when `announce`), watching the process its lifecycle started under `label`, and picks the load's
    /// users: a calls, b and c are called; all the file declares are called where `load.targetUsersAreCallees`.
    func start(_ file: TargetFile, load: any ProfileLoad, announce: Bool, label: String, cleanup: RunCleanup)
        async throws -> LoadBackend
    {
        let backend = try await FileTarget.start(
            file, announce: announce, log: reportDir + "/backend.log", cleanup: cleanup)
        var target = backend.target
        var callers: [TargetUser] = []
        var callees: [TargetUser] = []
        let declared = Set(file.users.keys).union(file.accountProvisioning?.users ?? [])
        let roles = load.targetUsersAreCallees ? declared.sorted() : ["a", "b", "c"]
        for role in roles {
            guard var user = target.accounts(role, 0) else { continue }
            if let credentials = target.credentials { user.authHeaders = try await credentials(role, 0) }
            if role == "a" { callers.append(user) } else { callees.append(user) }
        }
        target.credentials = nil
        var watched: WatchedProcess?
        if let pid = await backend.lifecycle?.pid {
            watched = WatchedProcess(pid: pid, label: label)
        }
        if load.targetUsersAreCallees {
            callees = callers + callees
            callers = []
        }
        return LoadBackend(
            load: load, target: target, mocks: backend.mocks, callers: callers, callees: callees, watched: watched)
    }
}
