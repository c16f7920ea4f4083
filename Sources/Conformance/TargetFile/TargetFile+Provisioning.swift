import Foundation
import HTTP
import JSON

extension TargetFile {
    /// The file with `users:` filled by its `accounts:` section (`TargetAccountProvisioning`): one account
    /// created in the running backend per user and slot, a few at a time. `runId` (`{runId}`) tells this
    /// run's accounts from any earlier run's. Throws, naming the user and slot, when an account cannot be
    /// made; a file without the section is returned as it is. `slots` (1-based, within `perUser`) makes only
    /// those slots' accounts, e.g. the one slot a second instance of the backend runs on; nil makes them all.
    public func provisioningAccounts(
        slots only: ClosedRange<Int>? = nil, runId: String = TargetAccountProvisioning.newRunId()
    ) async throws -> TargetFile {
        guard let provisioning = accountProvisioning, users.isEmpty else { return self }
        let range = (1...provisioning.perUser).clamped(to: only ?? 1...provisioning.perUser)
        let slots = provisioning.users.flatMap { user in range.map { (user, $0) } }
        var made: [String: [Int: TargetAccount]] = [:]
        try await withThrowingTaskGroup(of: (String, Int, TargetAccount).self) { group in
            var next = 0
            func startNext() {
                guard next < slots.count else { return }
                let (user, slot) = slots[next]
                next += 1
                group.addTask {
                    let values = ["user": user, "slot": String(slot), "runId": runId, "baseURL": baseURL]
                    return (user, slot, try await makeAccount(provisioning, values: values))
                }
            }
            for _ in 0..<6 { startNext() }
            while let (user, slot, account) = try await group.next() {
                made[user, default: [:]][slot] = account
                startNext()
            }
        }
        var out = self
        out.users = made.mapValues { bySlot in bySlot.keys.sorted().compactMap { bySlot[$0] } }
        return out
    }

    /// One account: the sign-up request's or the command's JSON answer read at the ID and token paths.
    func makeAccount(_ p: TargetAccountProvisioning, values: [String: String]) async throws -> TargetAccount {
        let what = "user \(values["user"] ?? "?")'s account \(values["slot"] ?? "?")"
        let answer: [UInt8]
        switch p.source {
        case .signUp(let signUp):
            answer = try await send(signUp, values: values, what: what)
        case .command(let command):
            let filled = TargetAccountProvisioning.fill(command, values)
            let output = try await CommandRunner.run(filled, in: directory, timeout: p.timeoutSeconds)
            guard output.status == 0 else {
                throw CommandError(
                    message: "accounts: the command for \(what) exited with status \(output.status): "
                        + String(output.stderr.prefix(300)))
            }
            answer = Array(output.stdout.utf8)
        }
        guard let json = try? JSONValue.parse(answer) else {
            throw CommandError(message: "accounts: the answer for \(what) is not JSON")
        }
        guard let userId = TargetAccountProvisioning.text(json.value(atPath: p.userIdPath)) else {
            throw CommandError(message: "accounts: the answer for \(what) has no ID at '\(p.userIdPath)'")
        }
        guard let token = json.value(atPath: p.tokenPath)?.stringValue, !token.isEmpty else {
            throw CommandError(message: "accounts: the answer for \(what) has no text token at '\(p.tokenPath)'")
        }
        return TargetAccount(userId: userId, auth: .headers(p.send.headers(token)))
    }

    /// Sends the sign-up request; its answer's body when the status is 2xx.
    func send(_ signUp: TargetSignUp, values: [String: String], what: String) async throws -> [UInt8] {
        let filledURL = TargetAccountProvisioning.fill(signUp.url, values)
        let url = filledURL.hasPrefix("/") ? baseURL + filledURL : filledURL
        var headers = HTTPHeaders()
        for (n, v) in signUp.headers.sorted(by: { $0.key < $1.key }) {
            headers.add(n.lowercased(), TargetAccountProvisioning.fill(v, values))
        }
        var body: [UInt8] = []
        if let template = signUp.body {
            body = Array(TargetAccountProvisioning.fill(template, values).serialized().utf8)
            if headers["content-type"] == nil { headers.add("content-type", "application/json") }
        }
        let client = try Target.makeClient(for: url, caFile: caFile, insecureSkipVerify: insecureSkipVerify)
        defer { client.shutdown() }
        let response: ClientResponse
        do {
            response = try await client.send(
                ClientRequest(method: signUp.method, url: url, headers: headers, body: body))
        } catch {
            throw CommandError(message: "accounts: the sign-up of \(what) (\(signUp.method) \(url)) failed: \(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw CommandError(
                message: "accounts: the sign-up of \(what) (\(signUp.method) \(url)) answered \(response.status)")
        }
        return response.body
    }
}

extension TargetAccountProvisioning {
    /// A fresh `{runId}`: 8 random hexadecimal digits.
    public static func newRunId() -> String {
        String(format: "%08x", UInt32.random(in: 0...UInt32.max))
    }

    /// `text` with each `{name}` of `values` replaced.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        var out = text
        for (name, value) in values { out = out.replacingOccurrences(of: "{\(name)}", with: value) }
        return out
    }

    /// `json` with `fill` applied to every text in it (keys stay).
    static func fill(_ json: JSONValue, _ values: [String: String]) -> JSONValue {
        switch json {
        case .string(let s): return .string(fill(s, values))
        case .array(let items): return .array(items.map { fill($0, values) })
        case .object(let members): return .object(members.map { (key: $0.key, value: fill($0.value, values)) })
        default: return json
        }
    }

    static func fill(_ command: BackendCommand, _ values: [String: String]) -> BackendCommand {
        switch command {
        case .arguments(let argv): return .arguments(argv.map { fill($0, values) })
        case .shell(let line): return .shell(fill(line, values))
        }
    }

    /// An ID as text: a string, or a whole number's decimal text.
    static func text(_ value: JSONValue?) -> String? {
        if let s = value?.stringValue, !s.isEmpty { return s }
        if let n = value?.intValue, value?.isIntegerLiteral == true { return String(n) }
        return nil
    }
}
