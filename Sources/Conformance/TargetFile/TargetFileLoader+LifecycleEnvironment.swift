import Foundation
import PushMocks

extension TargetFileDecoder {
    /// `lifecycle.environment`, every `${NAME}` in its values checked where it stands: a run variable
    /// (`TargetRunVariables.names`, filled when the run starts) or a mock setting (`MockSettings.names`, filled
    /// when the backend starts) stays for later; one set in ringcheck's environment is filled in here; any other is
    /// refused, so the backend never receives the literal text.
    ///
    /// ```yaml
    /// environment:
    ///   ONESIGNAL_APP_ID: ${RINGCHECK_ONESIGNAL_APP_ID}   # the OneSignal mock's app, filled at start
    ///   DATABASE_URL: ${DATABASE_URL}                    # from ringcheck's environment
    /// ```
    mutating func lifecycleEnvironment(_ node: YAMLNode, impersonation: ImpersonationOptions?) -> [String: String]? {
        guard var map = stringMap(node, "lifecycle.environment") else { return nil }
        let later = Set(TargetRunVariables.names).union(MockSettings.names(impersonation: impersonation))
        let own = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        for entry in node.entries ?? [] {
            guard let text = map[entry.key], text.contains("${") else { continue }
            let field = "lifecycle.environment.\(entry.key)"
            var filled: [String: String] = [:]
            for name in TargetRunVariables.references(in: text) where !later.contains(name) {
                if let value = own[name] {
                    filled[name] = value
                } else if !Self.isVariableName(name) {
                    d.error(entry.value.mark, field, "'${\(name)}' is not ${NAME} with a variable name")
                } else {
                    let known = later.sorted()
                    d.error(
                        entry.value.mark, field,
                        // No apostrophe beyond the suggestion's quotes: the diagnostic shortens quoted text.
                        "${\(name)} is no variable this run knows\(Diagnostics.suggestion(name, known)): use a run "
                            + "variable (RINGCHECK_EXECUTABLE, RINGCHECK_BACKEND_PORT, RINGCHECK_BACKEND_SECOND_PORT, "
                            + "RINGCHECK_BACKEND_STATE_DIR), a "
                            + "mock setting (RINGCHECK_APNS_URL, RINGCHECK_ONESIGNAL_APP_ID, …: the names ringcheck mocks "
                            + "writes) or a variable set in the environment ringcheck runs in")
                }
            }
            if !filled.isEmpty { map[entry.key] = TargetRunVariables(filled).fill(text) }
        }
        return map
    }
}
