import Foundation
import JSON

extension TargetFile {
    /// Reads and checks the target file at `path`; every problem is reported with its line and field.
    /// `users` says which users the command needs declared (`run`'s a, b and c by default); `profiles` are those
    /// the file's `profile:` may name and whose keys and capabilities it may give.
    public static func load(path: String, users: TargetUserNeeds = .suite, profiles: ProfileRegistry)
        throws(SuiteLoadError) -> TargetFile
    {
        let root: YAMLNode
        do { root = try YAMLDocument.parse(contentsOfFile: path) } catch {
            throw SuiteLoadError(errors: [SuiteError(error)])
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try load(root, file: path, directory: directory, users: users, profiles: profiles)
    }

    /// Reads a target file's text (`file` names it in errors; relative paths resolve against `directory`).
    public static func load(
        text: String, file: String = "<target>", directory: String = ".", users: TargetUserNeeds = .suite,
        profiles: ProfileRegistry
    ) throws(SuiteLoadError) -> TargetFile {
        let root: YAMLNode
        do { root = try YAMLDocument.parse(text, file: file) } catch {
            throw SuiteLoadError(errors: [SuiteError(error)])
        }
        return try load(root, file: file, directory: directory, users: users, profiles: profiles)
    }

    static func load(
        _ root: YAMLNode, file: String, directory: String, users: TargetUserNeeds, profiles: ProfileRegistry
    ) throws(SuiteLoadError) -> TargetFile {
        var decoder = TargetFileDecoder(file: file, directory: directory, needs: users, profiles: profiles)
        let result = decoder.decode(root)
        guard decoder.d.errors.isEmpty, let result else {
            throw SuiteLoadError(errors: decoder.d.errors.sorted { $0.mark < $1.mark })
        }
        return result
    }
}

/// Reads a target file's tree, collecting every problem with its line and field.
public struct TargetFileDecoder {
    var d: Diagnostics
    let directory: String
    /// The users the command needs `users:` to declare.
    let needs: TargetUserNeeds
    /// The profiles the file may name, whose keys and capabilities it may give.
    let profiles: ProfileRegistry

    init(file: String, directory: String, needs: TargetUserNeeds, profiles: ProfileRegistry) {
        d = Diagnostics(file: file)
        self.directory = directory
        self.needs = needs
        self.profiles = profiles
    }

    /// The top-level keys the engine reads itself.
    static let engineKeys = [
        "name", "baseURL", "tls", "appId", "capabilities", "users", "cleanUp", "mocks", "impersonate", "lifecycle",
        "profile", "accounts",
    ]

    /// Every top-level key a target file may give: the engine's, then each registered profile's
    /// (`Profile.targetFileKeys`) in registry order.
    var topKeys: [String] { Self.engineKeys + Self.sharedKeys + profiles.all.flatMap(\.targetFileKeys) }

    /// Every name a target file's `capabilities:` may list: the engine's capabilities, then each registered
    /// profile's (`Profile.capabilities`, then its `targetFileCapabilities`) in registry order.
    var knownCapabilities: [String] {
        var out = Capability.engineKnown.map(\.rawValue)
        for profile in profiles.all {
            for name in profile.capabilities.map(\.rawValue) + profile.targetFileCapabilities where !out.contains(name)
            {
                out.append(name)
            }
        }
        return out
    }

    /// The capabilities a target file may declare with a value (`{name: value}`): each profile's
    /// `valuedCapabilities`.
    var valuedCapabilities: Set<String> { Set(profiles.all.flatMap(\.valuedCapabilities).map(\.rawValue)) }

    mutating func decode(_ root: YAMLNode) -> TargetFile? {
        // A profile that makes its IDs per scenario and signs in as no user needs no users.
        let usersRequired =
            root.entries?.first { $0.key == "profile" }?.value.scalarText.flatMap(profiles.named)?.targetNeedsUsers
            ?? true
        // `accounts:` (ringcheck makes them) stands in for `users:`.
        let listsUsers = usersRequired && !(root.entries?.contains { $0.key == "accounts" } ?? false)
        guard
            let f = d.mapping(
                root, "", known: topKeys, required: listsUsers ? ["baseURL", "users"] : ["baseURL"])
        else { return nil }
        var baseURL = f["baseURL"].flatMap { d.nonEmptyString($0.value, "baseURL") } ?? ""
        if let e = f["baseURL"], !baseURL.isEmpty, !(baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://")) {
            d.error(e.value.mark, "baseURL", "'\(baseURL)' is not an http:// or https:// URL")
        }
        while baseURL.hasSuffix("/") { baseURL.removeLast() }
        var file = TargetFile(
            path: d.file, directory: directory, name: baseURL, baseURL: baseURL, caFile: nil, insecureSkipVerify: false,
            appId: nil, capabilities: [], users: [:], cleanUp: true, mocks: nil, lifecycle: nil)
        if let e = f["name"], let s = d.label(e.value, "name") { file.name = s }
        if let e = f["profile"], let name = d.nonEmptyString(e.value, "profile") {
            if let profile = profiles.named(name) {
                file.profile = name
                file.needsUsers = profile.targetNeedsUsers
            } else {
                d.error(e.value.mark, "profile", profiles.unknownMessage(name))
            }
        }
        if let e = f["tls"] { decodeTLS(e.value, into: &file) }
        file.appId = f["appId"].flatMap { d.nonEmptyString($0.value, "appId") }
        if let e = f["cleanUp"] { decodeCleanUp(e.value, into: &file) }
        var declared = DeclaredCapabilities()
        if let e = f["capabilities"] {
            declared = decodeCapabilities(e.value)
            file.capabilities = declared.set
        }
        if let e = f["users"] { file.users = decodeUsers(e.value, checkNeeded: usersRequired) }
        file.accountProvisioning = f["accounts"].flatMap { decodeAccountProvisioning($0.value) }
        if usersRequired { checkAccountSources(f, file) }
        if let e = f["mocks"] { file.mocks = decodeMocks(e.value) }
        if let e = f["impersonate"], let options = decodeImpersonate(e.value) {
            var mocks = file.mocks ?? TargetMocks()
            mocks.options.impersonation = options
            file.mocks = mocks
        }
        if let e = f["lifecycle"] {
            file.lifecycle = decodeLifecycle(e.value, impersonation: file.mocks?.options.impersonation)
            checkInstances(e.value, file)
        }
        let shared = sharedEntries(f)
        let operationsMark = f["operations"]?.keyMark ?? root.mark
        file.tokenAPI = decodeTokenAPI(
            installation: f["installation"], operations: shared.operations, values: shared.values,
            mark: operationsMark)
        for profile in profiles.all {
            let operations = Set(profile.targetFileOperations.map(\.name))
            let section = TargetFileSection(
                entries: f.filter { profile.targetFileKeys.contains($0.key) }, root: root,
                capabilityValues: declared.values.filter { name, _ in
                    profile.valuedCapabilities.contains { $0.rawValue == name }
                },
                declaredCapabilityNames: declared.names.intersection(profile.targetFileCapabilities),
                operations: shared.operations.filter { operations.contains($0.key) }, operationsMark: operationsMark,
                values: shared.values.filter { profile.targetFileValueNames.contains($0.key) })
            if let configuration = profile.decodeTargetFile(section, into: &file, decoder: &self) {
                file.profileConfiguration.insert(configuration)
            }
        }
        checkProfileUserIds(f["users"]?.value, file)
        if file.capabilities.contains(.restart), file.lifecycle?.restart == nil, file.lifecycle?.start == nil,
            let e = f["capabilities"]
        {
            d.error(
                e.value.mark, "capabilities",
                "'restart' needs lifecycle.restart or lifecycle.start (how ringcheck restarts the backend)")
        }
        return file
    }

    /// `path` resolved against the target file's folder.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: directory).appendingPathComponent(path).standardized.path
    }

    mutating func decodeTLS(_ node: YAMLNode, into file: inout TargetFile) {
        guard let f = d.mapping(node, "tls", known: ["caFile", "insecureSkipVerify"]) else { return }
        if let e = f["caFile"], let s = d.nonEmptyString(e.value, "tls.caFile") {
            file.caFile = resolve(s)
            if !FileManager.default.fileExists(atPath: resolve(s)) {
                d.error(e.value.mark, "tls.caFile", "no file at '\(resolve(s))'")
            }
        }
        file.insecureSkipVerify =
            f["insecureSkipVerify"].flatMap { d.bool($0.value, "tls.insecureSkipVerify") } ?? false
        if file.insecureSkipVerify, file.caFile != nil, let e = f["insecureSkipVerify"] {
            d.error(e.keyMark, "tls", "give either caFile or insecureSkipVerify, not both")
        }
    }

    /// What `capabilities:` declares.
    struct DeclaredCapabilities {
        var set: Set<Capability> = []
        /// The values of those declared as `{name: value}` (a profile's `valuedCapabilities`), by name, with
        /// their field (`capabilities[3].eventRetention`).
        var values: [String: (path: String, value: YAMLNode)] = [:]
        /// Every name the list gives (a profile's `targetFileCapabilities` among them).
        var names: Set<String> = []
    }

    /// The declared capabilities, the values of those declared with one (for their profile's
    /// `decodeTargetFile`), and the names the list gives.
    mutating func decodeCapabilities(_ node: YAMLNode) -> DeclaredCapabilities {
        guard let items = node.items else {
            d.error(node.mark, "capabilities", "expected a list such as [faults, shortRing], got \(node.kindName)")
            return DeclaredCapabilities()
        }
        let known = knownCapabilities
        var out: Set<Capability> = []
        var values: [String: (path: String, value: YAMLNode)] = [:]
        var names: Set<String> = []
        for (i, item) in items.enumerated() {
            let path = "capabilities[\(i)]"
            var name: String?
            if let entries = item.entries, entries.count == 1, valuedCapabilities.contains(entries[0].key) {
                name = entries[0].key
                values[entries[0].key] = (path + "." + entries[0].key, entries[0].value)
            } else {
                name = d.string(item, path)
            }
            guard let name else { continue }
            guard known.contains(name) else {
                d.error(
                    item.mark, path,
                    "unknown capability '\(name)'\(Diagnostics.suggestion(name, known)) (known: \(known.joined(separator: ", ")))"
                )
                continue
            }
            names.insert(name)
            out.insert(Capability(rawValue: name))
        }
        return DeclaredCapabilities(set: out, values: values, names: names)
    }
}
