import HTTP
import JSON

/// One call to DialStack's users API as the mock reads it: which user, which account, and what it set
/// `config.mobile_push_wakeup` to. The seed shows only the SDK call (`dialstack.users.update(userId, { config: {
/// mobile_push_wakeup: true } }, { dialstackAccount: accountId })`), not its REST shape, so the reading is liberal:
///
/// - the path ends in `users/{id}` (or `users/{id}/config`) under any prefix (`/v1/users/u1`,
///   `/v1/accounts/acct_1/users/u1`); PATCH, POST and PUT update, GET retrieves;
/// - the flag is `config.mobile_push_wakeup`, or `mobile_push_wakeup` at the top (a `…/config` path), in a JSON
///   body or a form body (`config[mobile_push_wakeup]=true`, as Stripe-style SDKs encode); `true`/`false` or
///   their strings;
/// - the account is a `DialStack-Account` header (or any header named `…-account`/`…-account-id`), a query or
///   body member `account`, `account_id`, `dialstack_account` or `dialstackAccount`, or the path's
///   `accounts/{id}`; none is none.
///
/// ```swift
/// let update = try DialStackUserUpdate.read(method: "PATCH", target: "/v1/users/u1", headers: headers, body: body)
/// update?.userId            // "u1"
/// update?.mobilePushWakeup  // true
/// ```
public struct DialStackUserUpdate: Sendable, Equatable {
    /// The user the call names.
    public var userId: String
    /// The DialStack account, when the call named one.
    public var account: String?
    /// What the call set `mobile_push_wakeup` to; nil when it did not touch it (or only retrieved the user).
    public var mobilePushWakeup: Bool?
    /// Whether the call changes the user (PATCH, POST, PUT) rather than reading it (GET).
    public var isUpdate: Bool

    /// Creates a value from its parts.
    public init(userId: String, account: String?, mobilePushWakeup: Bool?, isUpdate: Bool) {
        self.userId = userId
        self.account = account
        self.mobilePushWakeup = mobilePushWakeup
        self.isUpdate = isUpdate
    }

    /// The call a capture of the DialStack API mock recorded; nil for another mock's capture, or a request the
    /// mock did not read as a users call.
    public init?(_ capture: Capture) {
        guard capture.mock == .dialstack,
            let read = try? Self.read(
                method: capture.method, target: capture.target, headers: capture.headers, body: capture.body)
        else { return nil }
        self = read
    }

    /// Reads one request; nil when its path is not a users path. Throws `DialStackAPIError` (400) for a body
    /// that is not valid JSON, not an object, or a flag that is not a boolean.
    public static func read(method: String, target: String, headers: HTTPHeaders, body: [UInt8])
        throws(DialStackAPIError) -> DialStackUserUpdate?
    {
        let segments = pathOf(target).split(separator: "/").map { percentDecode(String($0)) }
        guard let users = segments.lastIndex(of: "users"), users + 1 < segments.count,
            users + 2 == segments.count || (users + 3 == segments.count && segments[users + 2] == "config")
        else { return nil }
        let configPath = users + 3 == segments.count
        let accounts = segments.firstIndex(of: "accounts").flatMap { $0 + 1 < users ? segments[$0 + 1] : nil }
        let isUpdate = ["PATCH", "POST", "PUT"].contains(method.uppercased())
        let fields = isUpdate ? try DialStackRequestFields(body: body, contentType: headers["content-type"]) : .empty
        let flag = try fields.flag(configPath: configPath)
        let account =
            headerAccount(headers) ?? queryAccount(target) ?? fields.account ?? accounts
        return DialStackUserUpdate(
            userId: segments[users + 1], account: account, mobilePushWakeup: flag, isUpdate: isUpdate)
    }

    /// The names an account may go by in a query or a body.
    static let accountNames = ["dialstack_account", "dialstackAccount", "account_id", "account"]

    private static func headerAccount(_ headers: HTTPHeaders) -> String? {
        for name in ["dialstack-account", "x-dialstack-account"] {
            if let value = headers[name], !value.isEmpty { return value }
        }
        return headers.first {
            ($0.name.hasSuffix("-account") || $0.name.hasSuffix("-account-id")) && !$0.value.isEmpty
        }?
        .value
    }

    private static func queryAccount(_ target: String) -> String? {
        guard let q = target.firstIndex(of: "?") else { return nil }
        let query = DialStackRequestFields.formFields(String(target[target.index(after: q)...]))
        return accountNames.lazy.compactMap { query[$0] }.first { !$0.isEmpty }
    }

    /// `users.update user u1 (account acct_1): mobile_push_wakeup true`: the capture's detail.
    public var summary: String {
        let call = isUpdate ? "users.update" : "users.retrieve"
        let flag =
            mobilePushWakeup.map { "mobile_push_wakeup \($0)" } ?? (isUpdate ? "mobile_push_wakeup unchanged" : "")
        return "\(call) user \(userId) (account \(account ?? "none"))" + (flag.isEmpty ? "" : ": \(flag)")
    }
}
