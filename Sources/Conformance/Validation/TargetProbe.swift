import HTTP
import JSON

/// One line of what `ringcheck validate` tried through a target's API beyond signing in: a request that
/// worked, one that did not (the operation, the request as it went and the answer), or why a kind of
/// request does not apply to the profile.
public struct TargetProbeLine: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case worked, failed, notApplicable
    }

    public var outcome: Outcome
    /// "registration (registerToken): PUT /v1/installations/…/push-tokens/apns-voip → 204".
    public var text: String

    public init(_ outcome: Outcome, _ text: String) {
        self.outcome = outcome
        self.text = text
    }
}

/// A profile whose target `ringcheck validate` can try with one registration and one read through the
/// target file's routes and mapping, cleaning up what it registered. A profile without it gets one "not
/// applicable" line.
///
/// ```swift
/// extension PagerProfile: TargetProbing {
///     func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine] {
///         [TargetProbeLine(.notApplicable, "registration: a pager registers no device")]
///     }
///     var probeSummary: String { "" }  // what validate --help says it registers and reads
/// }
/// ```
public protocol TargetProbing: Profile {
    /// Registers one device (or the profile's equivalent) with the backend, reads something back through the
    /// target's mapping, and removes what it registered: one line per request (or per kind of request that
    /// does not apply). Never throws: a failure is a `.failed` line naming the operation.
    func probe(_ target: Target, client: HTTPClient) async -> [TargetProbeLine]
    /// What the probe registers and reads, for `validate --help` (`a device token and its events feed`); ""
    /// (the default) when it tries nothing.
    var probeSummary: String { get }
}

extension TargetProbing {
    public var probeSummary: String { "" }
}

public enum TargetProbe {
    /// What `profile` tries against `target` (`TargetProbing.probe`); one not-applicable line for a profile
    /// that does not probe.
    public static func run(_ profile: any Profile, on target: Target) async -> [TargetProbeLine] {
        guard let probing = profile as? any TargetProbing else {
            return [TargetProbeLine(.notApplicable, "registration and read: the \(profile.name) profile has none")]
        }
        let client: HTTPClient
        do { client = try target.makeClient() } catch {
            return [TargetProbeLine(.failed, "registration: no HTTP client for \(target.baseURL): \(error)")]
        }
        return await probing.probe(target, client: client)
    }

    /// The first user the target lists, its account with the headers its sign-in gives; nil with the reason
    /// when it has none or cannot sign in.
    static func firstAccount(of target: Target) async -> (account: TargetUser?, problem: String?) {
        let role = target.roles.first ?? "a"
        guard var account = target.accounts(role, 0) else {
            return (nil, "the target has no account for user '\(role)'")
        }
        if let credentials = target.credentials {
            do { account.authHeaders = try await credentials(role, 0) } catch {
                return (nil, "user \(role) cannot sign in: \(error)")
            }
        }
        return (account, nil)
    }

    /// Sends `canonical` through the target's mapping; what went (`PUT /path`), the canonical status and
    /// JSON answer, the answer as the backend gave it, or the transport error.
    package static func send(_ canonical: PreparedRequest, to target: Target, client: HTTPClient) async -> (
        sent: String, status: Int?, json: JSONValue?, raw: JSONValue?, error: String?
    ) {
        let p = target.wire(canonical)
        let sent = "\(p.method) \(p.path)"
        do {
            let r = try await client.send(target.clientRequest(p))
            let raw = try? JSONValue.parse(r.body)
            let n = target.normalize(canonical.operation, status: r.status, json: raw)
            return (sent, n.status, n.json, raw, nil)
        } catch {
            return (sent, nil, nil, nil, "\(error)")
        }
    }

    /// `403`, `404 not_found`, or `no response (…)`.
    package static func summary(status: Int?, json: JSONValue?, error: String?) -> String {
        guard let status else { return "no response (\(error ?? "?"))" }
        if let code = json?["error"]?["code"]?.stringValue ?? json?["error"]?.stringValue { return "\(status) \(code)" }
        return "\(status)"
    }
}
