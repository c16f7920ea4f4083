import JSON

/// Reads scenarios from a parsed file, collecting every problem with its file, line and field.
/// Public so that a profile can decode its own steps with it; its members are the decoder's own.
public struct ScenarioDecoder {
    package var d: Diagnostics
    /// Nil when the catalogue itself failed to load: requirement IDs are then not checked.
    let catalogue: RequirementCatalogue?
    /// The suite's profile, which decodes the step keywords it adds.
    let profile: any Profile
    /// The registered profiles: a scenario's `needs:` may name any of their capabilities.
    let profiles: ProfileRegistry
    /// Names saved by the step being read (a profile's step adds the names it saves here).
    package var stepSaves: [String] = []

    // Per-scenario state, reset by `decodeScenario`.
    var devices: [VirtualDevice] = []
    var users: [String] = []
    /// `users` and the devices' names as sets: every step's `as:` and `device:` is looked up here.
    var userSet: Set<String> = []
    var deviceNames: Set<String> = []
    var requirements: [String] = []
    /// Names saved by the steps read so far (a set: every reference of every step looks here).
    var saved: Set<String> = []
    /// Names saved by the steps of the race being read; visible only after the race.
    var raceSaves: [String] = []

    package init(file: String, catalogue: RequirementCatalogue?, profile: any Profile, profiles: ProfileRegistry) {
        d = Diagnostics(file: file)
        self.catalogue = catalogue
        self.profile = profile
        self.profiles = profiles
    }

    /// Every step keyword of a scenario of this suite: the generic ones and the profile's.
    var stepKinds: [String] { Step.kinds + profile.stepKeywords }

    /// The keywords of steps that may run in a race.
    var requestKinds: [String] { Step.requestKinds + profile.requestStepKeywords }

    static let scenarioKeys = [
        "id", "title", "description", "requirements", "tags", "users", "devices", "needs", "steps",
    ]

    /// The scenarios of one file: either one scenario at the top, or `scenarios: [...]`.
    mutating func decodeFile(_ root: YAMLNode) -> [Scenario] {
        if let entries = root.entries, entries.count == 1, entries[0].key == "scenarios" {
            guard let items = entries[0].value.items else {
                d.error(
                    entries[0].value.mark, "scenarios", "expected a list of scenarios, got \(entries[0].value.kindName)"
                )
                return []
            }
            var out: [Scenario] = []
            for (i, item) in items.enumerated() {
                if let scenario = decodeScenario(item, path: "scenarios[\(i)]") { out.append(scenario) }
            }
            return out
        }
        return decodeScenario(root, path: "").map { [$0] } ?? []
    }

    // MARK: - Scenario

    mutating func decodeScenario(_ node: YAMLNode, path: String) -> Scenario? {
        devices = []
        users = ["a"]
        userSet = ["a"]
        deviceNames = []
        requirements = []
        saved = []
        let errorsBefore = d.errors.count
        guard
            let f = d.mapping(
                node, path, known: Self.scenarioKeys, required: ["id", "title", "requirements", "steps"])
        else { return nil }
        func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        let id = f["id"].flatMap { e -> String? in
            guard let s = d.string(e.value, field("id")) else { return nil }
            if !Self.isScenarioID(s) {
                d.error(
                    e.value.mark, field("id"), "'\(s)' is not a dotted lower-case ID such as arbitration.two-devices")
            }
            return s
        }
        let title = f["title"].flatMap { d.label($0.value, field("title")) }
        let description = f["description"].flatMap { d.string($0.value, field("description")) }
        let tags = f["tags"].flatMap { d.stringList($0.value, field("tags")) } ?? []
        if let e = f["requirements"] { requirements = decodeRequirementList(e.value, field("requirements")) }
        if let e = f["users"], let list = d.stringList(e.value, field("users")) {
            for u in list {
                if !Self.isName(u) { d.error(e.value.mark, field("users"), "'\(u)' is not a name (a-z, 0-9, -)") }
                addUser(u)
            }
        }
        if let e = f["devices"] { decodeDevices(e.value, field("devices")) }
        var needs: [Capability] = []
        if let e = f["needs"], let list = d.stringList(e.value, field("needs")) {
            let known = profiles.knownCapabilities.map(\.rawValue)
            for (i, n) in list.enumerated() {
                let mark = e.value.items?[i].mark ?? e.value.mark
                if known.contains(n) {
                    needs.append(Capability(rawValue: n))
                } else {
                    d.error(
                        mark, field("needs"),
                        "unknown capability '\(n)'\(Diagnostics.suggestion(n, known)) (known: \(known.joined(separator: ", ")))"
                    )
                }
            }
        }
        var steps: [ScenarioStep] = []
        if let e = f["steps"] {
            if let items = e.value.items, !items.isEmpty {
                for (i, item) in items.enumerated() {
                    if let step = decodeStep(item, path: field("steps") + "[\(i)]", inRace: false) {
                        steps.append(step)
                    }
                }
            } else {
                d.error(e.value.mark, field("steps"), "expected a non-empty list of steps, got \(e.value.kindName)")
            }
        }
        checkRestartNeeds(steps, needs: needs)
        guard d.errors.count == errorsBefore, let id, let title else { return nil }
        let deviceUsers = Set(devices.map(\.user))
        return Scenario(
            id: id, title: title, description: description, requirements: requirements, tags: tags,
            users: users.filter { u in u != "a" && !deviceUsers.contains(u) }, devices: devices,
            needs: needs, steps: steps, file: d.file, mark: node.mark)
    }

    mutating func decodeRequirementList(_ node: YAMLNode, _ path: String) -> [String] {
        guard let list = d.stringList(node, path) else { return [] }
        if list.isEmpty { d.error(node.mark, path, "name at least one requirement") }
        var out: [String] = []
        for (i, id) in list.enumerated() {
            let mark = node.items?[i].mark ?? node.mark
            if out.contains(id) {
                d.error(mark, path, "'\(id)' is listed twice")
                continue
            }
            if let catalogue, catalogue[id] == nil {
                d.error(mark, path, "unknown requirement '\(id)'\(Diagnostics.suggestion(id, catalogue.ids))")
            }
            out.append(id)
        }
        return out
    }

    mutating func decodeDevices(_ node: YAMLNode, _ path: String) {
        guard let entries = node.entries else {
            d.error(node.mark, path, "expected a mapping of device name to {user, kind}, got \(node.kindName)")
            return
        }
        for entry in entries {
            let p = "\(path).\(entry.key)"
            if !Self.isName(entry.key) { d.error(entry.keyMark, path, "'\(entry.key)' is not a name (a-z, 0-9, -)") }
            guard
                let f = d.mapping(
                    entry.value, p, known: ["user", "kind", "environment", "registered"], required: ["user", "kind"])
            else { continue }
            let user = f["user"].flatMap { d.string($0.value, p + ".user") }
            if let user, let mark = f["user"]?.value.mark, !Self.isName(user) {
                d.error(mark, p + ".user", "'\(user)' is not a name (a-z, 0-9, -)")
            }
            let kind = f["kind"].flatMap {
                d.choice($0.value, p + ".kind", VirtualDevice.Kind.allCases.map(\.rawValue))
            }
            .flatMap(VirtualDevice.Kind.init(rawValue:))
            let environment = f["environment"].flatMap {
                d.choice($0.value, p + ".environment", VirtualDevice.Environment.allCases.map(\.rawValue))
            }.flatMap(VirtualDevice.Environment.init(rawValue:))
            if let kind, !kind.hasEnvironments, let e = f["environment"] {
                let kinds = VirtualDevice.Kind.allCases.filter(\.hasEnvironments).map(\.rawValue)
                d.error(e.keyMark, p, "'environment' applies to \(kinds.joined(separator: ", ")) devices only")
            }
            let registered = f["registered"].flatMap { d.bool($0.value, p + ".registered") } ?? true
            if let user, let kind {
                devices.append(
                    VirtualDevice(
                        name: entry.key, user: user, kind: kind, environment: environment, registered: registered))
                deviceNames.insert(entry.key)
                addUser(user)
            }
        }
    }

    mutating func addUser(_ name: String) {
        if userSet.insert(name).inserted { users.append(name) }
    }

    // MARK: - Names

    static func isName(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLowercase || first.isNumber else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// `word(.word)+`, each word lower-case letters, digits and dashes.
    static func isScenarioID(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { isName(String($0)) }
    }
}
