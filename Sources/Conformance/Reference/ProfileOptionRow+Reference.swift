/// `serve-reference` options that several references take with the same meaning: a kit lists them in its
/// `ReferenceKit.serveOptions`, and the command's help names every kit that does.
///
/// ```swift
/// package let serveOptions: [ProfileOptionRow] = [.users, .log]
/// ```
extension ProfileOptionRow {
    /// `--users FILE`: the backend's users and their bearer tokens (`UserDirectory`).
    package static let users = ProfileOptionRow.value(
        "users", "FILE", help: "JSON users file ({\"users\": [{userId, displayName, handle, token}]})",
        default: "user-a, user-b, user-c")
    /// `--log FILE`: a line per request and push attempt, never a token or payload.
    package static let log = ProfileOptionRow.value(
        "log", "FILE", help: "Log each request and push attempt to FILE (- for standard output); no tokens or payloads",
        default: "no log")
}
