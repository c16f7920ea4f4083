import Foundation
import HTTP
import JSON

/// Signs a target file's accounts in, once each, and remembers the headers their requests carry.
public actor TargetSignIn {
    package let file: TargetFile
    /// One sign-in per account, shared by every scenario that asks while it is under way: two logins
    /// for one account could invalidate the first session on a backend that allows one.
    private var cache: [String: Task<[String: String], Error>] = [:]

    init(file: TargetFile) { self.file = file }

    /// The headers of scenario user `name`'s account in `slot`.
    func headers(name: String, slot: Int) async throws -> [String: String] {
        guard let pool = file.users[name], !pool.isEmpty else {
            throw CommandError(message: "the target file has no account for user '\(name)'")
        }
        return try await signIn(pool[slot % pool.count], key: "\(name)#\(slot % pool.count)")
    }

    /// Signs `account` in once per `key`, shared by every caller while it is under way.
    package func signIn(_ account: TargetAccount, key: String) async throws -> [String: String] {
        if let signingIn = cache[key] { return try await signingIn.value }
        let file = self.file
        let signingIn = Task<[String: String], Error> {
            switch account.auth {
            case .headers(let h): return h
            case .login(let login): return try await Self.logIn(login, account: account, file: file)
            case .command(let c): return try await Self.runCommand(c, account: account, directory: file.directory)
            }
        }
        cache[key] = signingIn
        do { return try await signingIn.value } catch {
            // A failed sign-in is tried again by the next scenario that needs the account.
            cache[key] = nil
            throw error
        }
    }

    /// Sends the login request and reads the token from its JSON answer.
    static func logIn(_ login: TargetLogin, account: TargetAccount, file: TargetFile) async throws -> [String: String] {
        let values: [String: JSONValue] = ["userId": .string(account.userId)]
        var used: Set<String> = []
        let url = login.url.hasPrefix("/") ? file.baseURL + login.url : login.url
        var headers = HTTPHeaders()
        for (n, v) in login.headers.sorted(by: { $0.key < $1.key }) { headers.add(n.lowercased(), v) }
        var body: [UInt8] = []
        if let template = login.body {
            body = Array((RequestTemplate.render(template, values, used: &used) ?? .null).serialized().utf8)
            if headers["content-type"] == nil { headers.add("content-type", "application/json") }
        }
        let client = try Target.makeClient(
            for: url, caFile: file.caFile, insecureSkipVerify: file.insecureSkipVerify)
        defer { client.shutdown() }
        let response = try await client.send(
            ClientRequest(method: login.method, url: url, headers: headers, body: body))
        guard (200..<300).contains(response.status) else {
            throw CommandError(
                message: "the login request for \(account.userId) (\(login.method) \(url)) answered \(response.status)")
        }
        guard let json = try? JSONValue.parse(response.body),
            let token = json.value(atPath: login.tokenPath)?.stringValue, !token.isEmpty
        else {
            throw CommandError(
                message: "the login answer for \(account.userId) has no text token at '\(login.tokenPath)'")
        }
        return login.send.headers(token)
    }

    /// Runs the token command and takes the first line it prints.
    static func runCommand(_ c: TargetTokenCommand, account: TargetAccount, directory: String) async throws -> [String:
        String]
    {
        let output = try await CommandRunner.run(c.command, in: directory, timeout: c.timeoutSeconds)
        guard output.status == 0 else {
            throw CommandError(
                message:
                    "the token command for \(account.userId) exited with status \(output.status): \(output.stderr.prefix(300))"
            )
        }
        let token = output.stdout.split(whereSeparator: \.isNewline).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let token, !token.isEmpty else {
            throw CommandError(message: "the token command for \(account.userId) printed nothing")
        }
        return c.send.headers(token)
    }
}

extension TargetFile {
    /// The `Target` the engine drives; `defaultAppId` (the mocks' bundle ID) unless the file names one.
    public func target(defaultAppId: String) -> Target {
        let users = self.users
        let needsUsers = self.needsUsers
        let signIn = TargetSignIn(file: self)
        let needsSignIn = users.values.contains { pool in
            pool.contains { if case .headers = $0.auth { return false } else { return true } }
        }
        var target = Target(
            name: name, baseURL: baseURL,
            accounts: { name, slot in
                guard let pool = users[name], !pool.isEmpty else {
                    // A profile that signs in as no user (its IDs are made per run) runs without accounts.
                    return needsUsers ? nil : TargetUser(userId: name, authHeaders: [:])
                }
                let account = pool[slot % pool.count]
                var user = TargetUser(userId: account.userId, authHeaders: [:])
                if case .headers(let h) = account.auth { user = TargetUser(userId: account.userId, authHeaders: h) }
                user.profileUserIds = account.profileUserIds
                return user
            },
            capabilities: capabilities, appId: appId ?? defaultAppId)
        target.roles = users.keys.sorted()
        target.accountSlots = accountSlots
        target.cleanUp = cleanUp
        target.cleanUpNotFoundIsCleaned = cleanUpNotFoundIsCleaned
        target.caFile = caFile
        target.insecureSkipVerify = insecureSkipVerify
        target.profileConfiguration = profileConfiguration.forTarget(signIn: signIn)
        target.tokenAPI = tokenAPI
        if needsSignIn { target.credentials = { name, slot in try await signIn.headers(name: name, slot: slot) } }
        return target
    }
}
