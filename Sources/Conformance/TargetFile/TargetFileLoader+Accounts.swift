extension TargetFileDecoder {
    /// `accounts:`: the accounts ringcheck creates when the run starts (`TargetAccountProvisioning`), one of
    /// `signUp: {method, url, headers, body}` or `command:` (argument list or shell line, `timeout`), with
    /// `perUser` (default 12), `users` (default a, b, c), where the answer holds them (`userId`, default
    /// `userId`; `token`, default `token`) and how the token is sent (`send`).
    ///
    /// ```yaml
    /// accounts:
    ///   command: [./new-account.sh, "{user}", "{slot}", "{runId}"]   # prints {"userId": …, "token": …}
    /// ```
    mutating func decodeAccountProvisioning(_ node: YAMLNode) -> TargetAccountProvisioning? {
        let path = "accounts"
        let known = ["signUp", "command", "timeout", "perUser", "users", "userId", "token", "send"]
        guard let f = d.mapping(node, path, known: known) else { return nil }
        let given = ["signUp", "command"].filter { f[$0] != nil }
        guard given.count == 1 else {
            d.error(
                node.mark, path,
                given.isEmpty
                    ? "say how an account is made: signUp (an HTTP request) or command (a program printing it)"
                    : "give one way to make an account, not both signUp and command")
            return nil
        }
        if given[0] != "command", let e = f["timeout"] {
            d.error(e.keyMark, path, "'timeout' applies to 'command' only")
        }
        let source: TargetAccountProvisioning.Source
        if let e = f["signUp"] {
            guard let signUp = decodeSignUp(e.value, path + ".signUp") else { return nil }
            source = .signUp(signUp)
        } else {
            guard let command = f["command"].flatMap({ decodeCommand($0.value, path + ".command") }) else { return nil }
            source = .command(command)
        }
        var users = Self.requiredUsers
        if let e = f["users"], let list = d.stringList(e.value, path + ".users") {
            for name in list where !ScenarioDecoder.isName(name) {
                d.error(e.value.mark, path + ".users", "'\(name)' is not a user name (a-z, 0-9, -)")
            }
            if list.isEmpty { d.error(e.value.mark, path + ".users", "name at least one user") }
            users = list
        }
        let perUser = f["perUser"].flatMap { d.int($0.value, path + ".perUser", min: 1) } ?? 12
        if let e = f["perUser"], perUser > 100 {
            d.error(e.value.mark, path + ".perUser", "\(perUser) is more than 100 accounts per user")
        }
        let timeout = f["timeout"].flatMap { d.duration($0.value, path + ".timeout") }
        return TargetAccountProvisioning(
            source: source, users: users, perUser: min(perUser, 100),
            userIdPath: f["userId"].flatMap { d.nonEmptyString($0.value, path + ".userId") } ?? "userId",
            tokenPath: f["token"].flatMap { d.nonEmptyString($0.value, path + ".token") } ?? "token",
            send: f["send"].flatMap { decodeSend($0.value, path + ".send") } ?? TokenDelivery(),
            timeoutSeconds: Double(timeout?.milliseconds ?? 10_000) / 1000)
    }

    /// `signUp: {method, url, headers, body}` (method POST by default).
    mutating func decodeSignUp(_ node: YAMLNode, _ path: String) -> TargetSignUp? {
        guard let f = d.mapping(node, path, known: ["method", "url", "headers", "body"], required: ["url"]) else {
            return nil
        }
        let method = f["method"].flatMap { d.choice($0.value, path + ".method", Self.methods) } ?? "POST"
        guard let url = f["url"].flatMap({ d.nonEmptyString($0.value, path + ".url") }) else { return nil }
        if let e = f["url"], !(url.hasPrefix("/") || url.hasPrefix("http://") || url.hasPrefix("https://")) {
            d.error(e.value.mark, path + ".url", "'\(url)' is neither a path under baseURL (/…) nor an http(s) URL")
        }
        // A header's value may be a secret kept in ringcheck's environment (`X-Admin-Key: "${ADMIN_KEY}"`).
        var headers: [String: String] = [:]
        if let e = f["headers"], let map = stringMap(e.value, path + ".headers") {
            for (name, value) in map {
                headers[name] = expandSecret(value, mark: e.value.mark, field: "\(path).headers.\(name)")
            }
        }
        return TargetSignUp(method: method, url: url, headers: headers, body: f["body"]?.value.json)
    }

    /// `users:` or `accounts:`, not both; the users the command needs among those `accounts:` makes.
    mutating func checkAccountSources(_ f: [String: YAMLMapEntry], _ file: TargetFile) {
        guard let e = f["accounts"] else { return }
        if f["users"] != nil {
            d.error(e.keyMark, "accounts", "give users (accounts listed) or accounts (accounts made), not both")
        } else if let p = file.accountProvisioning {
            checkNeeded(
                Dictionary(p.users.map { ($0, [TargetAccount]()) }, uniquingKeysWith: { first, _ in first }), [],
                e.value)
        }
    }
}
