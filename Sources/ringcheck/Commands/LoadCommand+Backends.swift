import AllProfiles
import Callx
import Conformance
import DialStack
import Foundation
import OneSignal
import PushMocks
import PushService
import ReferenceBackend

extension LoadCommand {
    /// The embedded reference's load users: callers `load-a0`, `load-a1`, callees `load-b0`…`load-b2`.
    static let embeddedCallers = ["load-a0", "load-a1"]
    static let embeddedCallees = ["load-b0", "load-b1", "load-b2"]
    /// Events kept per feed on the embedded backend: far more than a feed holds between two reads, so a
    /// gap there would be a finding about the driver, not the backend.
    static let embeddedEventRetention = 100_000

    /// Starts the mocks and the embedded reference backend (in process, or as a child process).
    func startEmbedded(cleanup: RunCleanup) async throws -> LoadBackend {
        let names = Self.embeddedCallers + Self.embeddedCallees
        let users = names.map {
            BackendUser(userId: $0, displayName: $0, handle: "callx:\($0)", bearerToken: "token-\($0)")
        }
        let accounts: @Sendable (String, Int) -> TargetUser? = { name, _ in
            names.contains(name) ? TargetUser(userId: name, bearerToken: "token-\(name)") : nil
        }
        let log = asChildProcess ? reportDir + "/backend.log" : nil
        let embedded = try await EmbeddedReference.start(
            defects: defects, users: users, ringSeconds: 30, accounts: accounts, log: log,
            asChildProcess: asChildProcess, eventRetention: Self.embeddedEventRetention, cleanup: cleanup)
        var watched: WatchedProcess?
        if asChildProcess, let pid = await embedded.lifecycle?.pid {
            watched = WatchedProcess(pid: pid, label: "reference backend (child process, SQLite file)")
        } else if !asChildProcess {
            watched = WatchedProcess(
                pid: getpid(),
                label:
                    "ringcheck itself (embedded reference in process, SQLite file; includes the mocks and the driver)")
        }
        return LoadBackend(
            profile: "callx", target: embedded.target, mocks: embedded.mocks,
            callers: Self.embeddedCallers.compactMap { accounts($0, 0) },
            callees: Self.embeddedCallees.compactMap { accounts($0, 0) }, watched: watched)
    }

    /// What `load --target` needs the file's `users:` to declare for `profile`: callx's caller a and callee b;
    /// none by name for the others (dialstack wakes whichever users the file declares; push-service and
    /// onesignal make fresh IDs of their own).
    static func neededUsers(_ profile: String) -> TargetUserNeeds {
        guard profile == CallxProfile().name else { return .users([], why: "") }
        return .users(["a", "b"], why: "load --profile callx: user a calls user b (and c, when declared)")
    }

    /// Starts the mocks (and the backend, when the file's lifecycle says how) for `--target FILE`: user
    /// a calls b (and c when the file declares it); for dialstack, webhooks wake the devices of every user
    /// the file declares; push-service and onesignal use none of them.
    func startTarget(_ path: String, cleanup: RunCleanup) async throws -> LoadBackend {
        var file = try FileTarget.load(path, users: .users([], why: ""))
        let fileProfile = file.profile ?? "callx"
        let needs = Self.neededUsers(fileProfile)
        if needs != .users([], why: "") { file = try FileTarget.load(path, users: needs) }
        if let profile, profile != fileProfile {
            throw UsageError(
                message: "\(path) is for profile '\(fileProfile)', not --profile \(profile)", command: "load")
        }
        guard Self.profiles.contains(fileProfile) else {
            throw UsageError(
                message:
                    "\(path) is for profile '\(fileProfile)': load mode supports \(Self.profilesSentence("and"))",
                command: "load")
        }
        return try await start(
            file, profile: fileProfile, announce: true,
            label: "backend (child process started by the target file's lifecycle)", cleanup: cleanup)
    }

    /// Starts the mocks and the backend of a loaded target `file` of `profile` (announcing the mock settings
    /// when `announce`), watching the process its lifecycle started under `label`, and picks the load's users.
    func start(_ file: TargetFile, profile fileProfile: String, announce: Bool, label: String, cleanup: RunCleanup)
        async throws -> LoadBackend
    {
        let backend = try await FileTarget.start(
            file, announce: announce, log: reportDir + "/backend.log", cleanup: cleanup)
        var target = backend.target
        var callers: [TargetUser] = []
        var callees: [TargetUser] = []
        let dialStack = fileProfile == DialStackProfile().name
        let declared = Set(file.users.keys).union(file.accountProvisioning?.users ?? [])
        let roles = dialStack ? declared.sorted() : ["a", "b", "c"]
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
        if dialStack {
            callees = callers + callees
            callers = []
        }
        return LoadBackend(
            profile: fileProfile, target: target, mocks: backend.mocks, callers: callers, callees: callees,
            watched: watched)
    }
}

extension LoadCommand {
    /// The embedded dialstack reference's load users: `u0-l0` … `u0-l5` (bearer `token-u0-l0` …), with 1, 2
    /// and 3 virtual devices in turn.
    static let embeddedDialStackUsers = (0..<6).map { "l\($0)" }

    /// Starts the mocks and the embedded reference of `profile`: as a child process through the kit's
    /// `processTargetFile` (its users are the file's), or in process (`--reference-in-process`), for dialstack
    /// with the load users.
    func startEmbeddedProfile(_ profile: String, cleanup: RunCleanup) async throws -> LoadBackend {
        guard let kit = ReferenceKits.named(profile) else {
            throw UsageError(
                message: "profile '\(profile)' has no embedded reference: give --target FILE", command: "load")
        }
        if asChildProcess {
            guard let text = kit.processTargetFile(defects: defectNames) else {
                throw UsageError(
                    message: "the \(profile) reference cannot run as a child process: give --reference-in-process",
                    command: "load")
            }
            let file: TargetFile
            do {
                file = try TargetFile.load(
                    text: text, file: "<the \(profile) reference as a child process>",
                    users: Self.neededUsers(profile))
            } catch { throw ConfigurationError(message: "the reference's target has problems:\n\(error)") }
            return try await start(
                file, profile: profile, announce: false,
                label: "reference backend (child process, serve-reference --profile \(profile))", cleanup: cleanup)
        }
        let dialStack = profile == DialStackProfile().name
        let embedded = try await kit.startEmbedded(
            defectNames: defectNames,
            EmbeddedStart(runs: 1, userNames: dialStack ? Self.embeddedDialStackUsers : []), cleanup: cleanup)
        return LoadBackend(
            profile: profile, target: embedded.target, mocks: embedded.mocks, callers: [],
            callees: dialStack ? Self.embeddedDialStackUsers.compactMap { embedded.target.accounts($0, 0) } : [],
            watched: WatchedProcess(
                pid: getpid(),
                label: "ringcheck itself (embedded reference in process; includes the mocks and the driver)"))
    }

    /// The workload of the backend's profile.
    func makeWorkload(_ started: LoadBackend) throws -> any LoadWorkload {
        switch started.profile {
        case DialStackProfile().name:
            return try DialStackLoadWorkload(target: started.target, mocks: started.mocks, users: started.callees)
        case PushServiceProfile().name:
            return try PushServiceLoadWorkload(target: started.target, mocks: started.mocks)
        case OneSignalProfile().name:
            return try OneSignalLoadWorkload(target: started.target, mocks: started.mocks)
        default: break
        }
        return try CallxLoadWorkload(
            target: started.target, mocks: started.mocks, settings: callxSettings, callers: started.callers,
            callees: started.callees)
    }
}
