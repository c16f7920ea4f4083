import JSON

/// The users a command needs a target file to declare.
public enum TargetUserNeeds: Sendable, Equatable {
    /// `run`: the suite's scenarios use a (the caller), b (the callee) and c (a user in no call).
    case suite
    /// `call`: only its caller (`--as`) and callee (`--to`), each a user of the file or an account's user ID.
    case call(caller: String, callee: String)
    /// `load`: the users its profile's workload plays (none for a profile that makes its own, such as
    /// push-service), `why` saying what they are for in the error about a missing one.
    case users([String], why: String)
}

extension TargetFileDecoder {
    /// The users every suite scenario may name: the caller, the callee, and a user in no call.
    static let requiredUsers = ["a", "b", "c"]

    /// Reports each user `needs` names that `users:` lacks (an entry that failed to decode was reported already).
    mutating func checkNeeded(_ out: [String: [TargetAccount]], _ entries: [YAMLMapEntry], _ node: YAMLNode) {
        let declared = Set(entries.map(\.key)).union(out.keys)
        switch needs {
        case .suite:
            for name in Self.requiredUsers where !declared.contains(name) {
                d.error(node.mark, "users", "missing user '\(name)' (the suite's scenarios use a, b and c)")
            }
        case .call(let caller, let callee):
            let userIds = Set(out.values.joined().map(\.userId))
            for (name, why) in [(caller, "the call's caller, --as"), (callee, "the call's callee, --to")]
            where !declared.contains(name) && !userIds.contains(name) {
                d.error(
                    node.mark, "users",
                    "missing user '\(name)' (\(why)): it is neither a user here (\(declared.sorted().joined(separator: ", "))) nor an account's userId"
                )
            }
        case .users(let names, let why):
            for name in names where !declared.contains(name) {
                d.error(
                    node.mark, "users",
                    "missing user '\(name)' (\(why)); the file declares \(declared.isEmpty ? "none" : declared.sorted().joined(separator: ", "))"
                )
            }
        }
    }

    /// `users:`: each scenario user name to one account or a list of them (a pool); `checkNeeded` reports the
    /// users the command needs that it lacks.
    mutating func decodeUsers(_ node: YAMLNode, checkNeeded needed: Bool = true) -> [String: [TargetAccount]] {
        guard let entries = node.entries else {
            d.error(node.mark, "users", "expected a mapping of user names (a, b, c) to accounts, got \(node.kindName)")
            return [:]
        }
        var out: [String: [TargetAccount]] = [:]
        for entry in entries {
            let path = "users.\(entry.key)"
            if !ScenarioDecoder.isName(entry.key) {
                d.error(entry.keyMark, "users", "'\(entry.key)' is not a user name (a-z, 0-9, -)")
            }
            if let items = entry.value.items {
                if items.isEmpty { d.error(entry.value.mark, path, "list at least one account") }
                out[entry.key] = items.enumerated().compactMap { decodeAccount($1, "\(path)[\($0)]") }
            } else if let account = decodeAccount(entry.value, path) {
                out[entry.key] = [account]
            }
        }
        if needed { checkNeeded(out, entries, node) }
        let sizes = Set(out.values.map(\.count))
        if sizes.count > 1 {
            d.error(
                node.mark, "users",
                "every user needs the same number of accounts (one slot per concurrent scenario); got \(out.map { "\($0.key): \($0.value.count)" }.sorted().joined(separator: ", "))"
            )
        }
        return out
    }

    /// `<profile>UserId` for every profile but the default (`dialstackUserId`): an account's ID in that system.
    var profileUserIdKeys: [(key: String, profile: String)] {
        profiles.names.dropFirst().map { ($0 + "UserId", $0) }
    }

    mutating func decodeAccount(_ node: YAMLNode, _ path: String) -> TargetAccount? {
        let known = ["userId", "auth"] + profileUserIdKeys.map(\.key)
        guard let f = d.mapping(node, path, known: known, required: ["userId", "auth"]) else { return nil }
        let userId = f["userId"].flatMap { d.nonEmptyString($0.value, path + ".userId") }
        let auth = f["auth"].flatMap { decodeAuth($0.value, path + ".auth") }
        var ids: [String: String] = [:]
        for (key, profile) in profileUserIdKeys {
            if let id = f[key].flatMap({ d.nonEmptyString($0.value, "\(path).\(key)") }) { ids[profile] = id }
        }
        guard let userId, let auth else { return nil }
        return TargetAccount(userId: userId, auth: auth, profileUserIds: ids)
    }

    /// One of `bearer: T`, `headers: {…}`, `login: {…}`, `command: […]`.
    package mutating func decodeAuth(_ node: YAMLNode, _ path: String) -> TargetAuth? {
        let modes = ["bearer", "headers", "login", "command"]
        guard let f = d.mapping(node, path, known: modes + ["timeout", "send"]) else { return nil }
        let given = modes.filter { f[$0] != nil }
        guard given.count == 1 else {
            d.error(
                node.mark, path,
                given.isEmpty
                    ? "say how the user authenticates: one of \(Diagnostics.list(modes))"
                    : "give one way to authenticate, not \(Diagnostics.list(given))")
            return nil
        }
        let send = f["send"].flatMap { decodeSend($0.value, path + ".send") } ?? TokenDelivery()
        if given[0] != "command", let e = f["timeout"] {
            d.error(e.keyMark, path, "'timeout' applies to 'command' only")
        }
        if ["bearer", "headers"].contains(given[0]), let e = f["send"] {
            d.error(e.keyMark, path, "'send' applies to 'login' and 'command' only")
        }
        switch given[0] {
        // A bearer token or a header's value may be a secret kept in ringcheck's environment (`"${ADMIN_KEY}"`),
        // as a sign-up's headers may: sent literally, it reached the backend as the text `${ADMIN_KEY}`.
        case "bearer":
            guard let e = f["bearer"], let token = d.nonEmptyString(e.value, path + ".bearer"),
                let value = expandSecret(token, mark: e.value.mark, field: path + ".bearer")
            else { return nil }
            return .headers(["authorization": "Bearer \(value)"])
        case "headers":
            guard let e = f["headers"], let headers = stringMap(e.value, path + ".headers") else { return nil }
            if headers.isEmpty { d.error(e.value.mark, path + ".headers", "name at least one header") }
            var expanded: [String: String] = [:]
            for (name, value) in headers {
                guard let value = expandSecret(value, mark: e.value.mark, field: "\(path).headers.\(name)") else {
                    continue
                }
                expanded[name.lowercased()] = value
            }
            return .headers(expanded)
        case "login":
            return f["login"].flatMap { decodeLogin($0.value, path + ".login", send: send) }.map(TargetAuth.login)
        default:
            guard let command = f["command"].flatMap({ decodeCommand($0.value, path + ".command") }) else { return nil }
            let timeout = f["timeout"].flatMap { d.duration($0.value, path + ".timeout") }
            return .command(
                TargetTokenCommand(
                    command: command, timeoutSeconds: Double(timeout?.milliseconds ?? 10_000) / 1000, send: send))
        }
    }

    mutating func decodeLogin(_ node: YAMLNode, _ path: String, send: TokenDelivery) -> TargetLogin? {
        guard
            let f = d.mapping(
                node, path, known: ["method", "url", "headers", "body", "token"], required: ["url", "token"])
        else { return nil }
        let method = f["method"].flatMap { d.choice($0.value, path + ".method", Self.methods) } ?? "POST"
        let url = f["url"].flatMap { d.nonEmptyString($0.value, path + ".url") }
        if let url, let e = f["url"], !(url.hasPrefix("/") || url.hasPrefix("http://") || url.hasPrefix("https://")) {
            d.error(e.value.mark, path + ".url", "'\(url)' is neither a path under baseURL (/…) nor an http(s) URL")
        }
        let headers = f["headers"].flatMap { stringMap($0.value, path + ".headers") } ?? [:]
        let token = f["token"].flatMap { d.nonEmptyString($0.value, path + ".token") }
        guard let url, let token else { return nil }
        return TargetLogin(
            method: method, url: url, headers: headers, body: f["body"]?.value.json, tokenPath: token, send: send)
    }

    /// `send: {header: Authorization, format: "Bearer {token}"}`.
    mutating func decodeSend(_ node: YAMLNode, _ path: String) -> TokenDelivery? {
        guard let f = d.mapping(node, path, known: ["header", "format"]) else { return nil }
        var out = TokenDelivery()
        if let s = f["header"].flatMap({ d.nonEmptyString($0.value, path + ".header") }) { out.header = s }
        if let e = f["format"], let s = d.string(e.value, path + ".format") {
            if !s.contains("{token}") { d.error(e.value.mark, path + ".format", "'\(s)' has no {token}") }
            out.format = s
        }
        return out
    }

    /// A command: a list of arguments, or one line for the shell.
    mutating func decodeCommand(_ node: YAMLNode, _ path: String) -> BackendCommand? {
        if node.scalarText != nil { return d.nonEmptyString(node, path).map(BackendCommand.shell) }
        guard let list = d.stringList(node, path) else { return nil }
        if list.isEmpty {
            d.error(node.mark, path, "name the program to run")
            return nil
        }
        return .arguments(list)
    }

    /// `dialstackUserId:` (any profile's user ID) only in a file written for that profile.
    mutating func checkProfileUserIds(_ users: YAMLNode?, _ file: TargetFile) {
        guard let users else { return }
        for entry in users.entries ?? [] {
            let accounts = entry.value.items ?? [entry.value]
            for (i, account) in accounts.enumerated() {
                for field in account.entries ?? [] {
                    guard let profile = profileUserIdKeys.first(where: { $0.key == field.key })?.profile,
                        file.profile != profile
                    else { continue }
                    let path = "users.\(entry.key)" + (entry.value.items == nil ? "" : "[\(i)]")
                    d.error(field.keyMark, path, "'\(field.key)' applies to a target file with profile: \(profile)")
                }
            }
        }
    }
}
