import Foundation
import Signing

extension TargetFileDecoder {
    static let serviceAppKeys = ["appId", "apiKey", "appIdEnv", "apiKeyEnv", "routes", "fieldNames"]

    /// `serviceApp: {appId, apiKey, routes?, fieldNames?}`: the app ringcheck acts for at a push service. `appId`
    /// and `apiKey` are literals or `${NAME}` read from ringcheck's environment; `appIdEnv`/`apiKeyEnv: NAME` make
    /// ringcheck generate the value and give it to the service it starts as that variable. `routes` maps the
    /// profile's route names to the service's paths, `fieldNames` the seed's member names to the service's.
    mutating func decodeServiceApp(_ entry: YAMLMapEntry?, into file: inout TargetFile, root: YAMLNode) -> ServiceApp? {
        guard let entry else {
            if file.profile == PushServiceProfile.profileName {
                d.error(
                    root.mark, "serviceApp",
                    "a \(PushServiceProfile.profileName) target needs serviceApp: {appId, apiKey} (the app ringcheck sends for)"
                )
            }
            return nil
        }
        guard let f = d.mapping(entry.value, "serviceApp", known: Self.serviceAppKeys) else { return nil }
        func value(_ literal: String, _ env: String, generate: () -> String) -> String? {
            switch (f[literal], f[env]) {
            case (let e?, nil):
                guard let text = d.nonEmptyString(e.value, "serviceApp.\(literal)") else { return nil }
                guard text.hasPrefix("${"), text.hasSuffix("}") else { return text }
                let name = String(text.dropFirst(2).dropLast())
                guard let v = ProcessInfo.processInfo.environment[name], !v.isEmpty else {
                    d.error(e.value.mark, "serviceApp.\(literal)", "\(name) is not set in ringcheck's environment")
                    return nil
                }
                return v
            case (nil, let e?):
                guard let name = d.nonEmptyString(e.value, "serviceApp.\(env)") else { return nil }
                guard Self.isVariableName(name), var lifecycle = file.lifecycle, lifecycle.start != nil else {
                    d.error(
                        e.value.mark, "serviceApp.\(env)",
                        "'\(env)' needs an environment variable name and lifecycle.start (ringcheck hands the value it generates to the service it starts)"
                    )
                    return nil
                }
                let generated = generate()
                lifecycle.environment[name] = generated
                file.lifecycle = lifecycle
                return generated
            case (_?, _?):
                d.error(f[env]!.keyMark, "serviceApp", "give either '\(literal)' or '\(env)', not both")
                return nil
            case (nil, nil):
                d.error(entry.value.mark, "serviceApp", "missing '\(literal)' (or '\(env)')")
                return nil
            }
        }
        let appId = value("appId", "appIdEnv") { UUID().uuidString.lowercased() }
        let apiKey = value("apiKey", "apiKeyEnv") { "psk_" + SecureRandom.alphanumeric(32, uppercaseOnly: false) }
        var routes: [String: String] = [:]
        if let e = f["routes"], let map = stringMap(e.value, "serviceApp.routes") {
            for (name, path) in map {
                if !Self.serviceRouteNames.contains(name) {
                    d.error(
                        e.value.mark, "serviceApp.routes",
                        "'\(name)' is no route of the profile\(Diagnostics.suggestion(name, Self.serviceRouteNames)) (\(Self.serviceRouteNames.joined(separator: ", ")))"
                    )
                } else if !path.hasPrefix("/") {
                    d.error(e.value.mark, "serviceApp.routes.\(name)", "'\(path)' is not a path under baseURL (/…)")
                }
            }
            routes = map
        }
        let fieldNames = f["fieldNames"].flatMap { checkedFieldNames($0.value) } ?? [:]
        guard let appId, let apiKey else { return nil }
        return ServiceApp(appId: appId, apiKey: apiKey, routes: routes, fieldNames: fieldNames)
    }

    /// `serviceApp.fieldNames`: each service name non-empty and given to one seed name only (answers are read back
    /// through the inverse).
    private mutating func checkedFieldNames(_ node: YAMLNode) -> [String: String]? {
        guard let map = stringMap(node, "serviceApp.fieldNames") else { return nil }
        var seedNameOf: [String: String] = [:]
        for entry in node.entries ?? [] {
            guard let name = map[entry.key] else { continue }
            if name.isEmpty {
                d.error(entry.value.mark, "serviceApp.fieldNames.\(entry.key)", "the service's name must not be empty")
            } else if let other = seedNameOf[name] {
                d.error(
                    entry.value.mark, "serviceApp.fieldNames.\(entry.key)",
                    "'\(name)' is already the service's name for '\(other)'; answers could not be read back")
            } else {
                seedNameOf[name] = entry.key
            }
        }
        return map
    }

    /// The route names a `serviceApp.routes` may map (the push-service profile's).
    static var serviceRouteNames: [String] { PushServiceRoutes.names }
}
