import Conformance
import Foundation
import Signing

extension TargetFileDecoder {
    static let serviceAppKeys = ["appId", "apiKey", "appIdEnv", "apiKeyEnv", "routes", "fieldNames", "auth"]

    /// `serviceApp: {appId, apiKey, routes?, fieldNames?, auth?}`: the app ringcheck acts for at a push service. `appId`
    /// and `apiKey` are literals or `${NAME}` read from ringcheck's environment; `appIdEnv`/`apiKeyEnv: NAME` make
    /// ringcheck generate the value and give it to the service it starts as that variable. `routes` maps the
    /// profile's route names to the service's paths, `fieldNames` the seed's member names to the service's (see
    /// `ServiceFieldNames`), `auth` the device routes to the scheme of the key they carry.
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
        let fieldNames = f["fieldNames"].flatMap { decodeFieldNames($0.value) } ?? ServiceFieldNames()
        let routeAuth = f["auth"].flatMap { decodeRouteAuth($0.value) } ?? [:]
        guard let appId, let apiKey else { return nil }
        var app = ServiceApp(appId: appId, apiKey: apiKey, routes: routes, fieldNames: fieldNames)
        app.routeAuth = routeAuth
        return app
    }

    /// The routes a `serviceApp.auth` may name: the device routes, which the seed calls without the key. The
    /// notification routes carry the scheme each scenario chooses (their authentication is what is judged).
    static let keyedRouteNames = ["device", "devices"]

    /// `serviceApp.auth: {devices: key, device: key}`: the authentication the device routes carry instead of
    /// none (`key`, `basic`, `bearer`: the app's REST key in that scheme; `none`, the default).
    private mutating func decodeRouteAuth(_ node: YAMLNode) -> [String: PushServiceAuth]? {
        guard let entries = node.entries else {
            d.error(node.mark, "serviceApp.auth", "expected a mapping of route names to key, basic, bearer or none")
            return nil
        }
        var out: [String: PushServiceAuth] = [:]
        for entry in entries {
            let path = "serviceApp.auth.\(entry.key)"
            guard Self.keyedRouteNames.contains(entry.key) else {
                let why =
                    Self.serviceRouteNames.contains(entry.key)
                    ? "'\(entry.key)' carries the authentication each scenario chooses (it is what the AUTH checks judge)"
                    : "'\(entry.key)' is no route of the profile\(Diagnostics.suggestion(entry.key, Self.keyedRouteNames))"
                d.error(entry.keyMark, path, "\(why); auth names the device routes: devices, device")
                continue
            }
            guard let scheme = d.choice(entry.value, path, ["key", "basic", "bearer", "none"]) else { continue }
            out[entry.key] = PushServiceAuth(rawValue: scheme)
        }
        return out
    }

    /// `serviceApp.fieldNames`: `seedName: serviceName` (every depth), `seed.path: serviceName` (that member only),
    /// or `route: {…}` (the same, in that route's bodies and answers only).
    private mutating func decodeFieldNames(_ node: YAMLNode) -> ServiceFieldNames? {
        guard let entries = node.entries else {
            d.error(node.mark, "serviceApp.fieldNames", "expected a mapping of names to text, got \(node.kindName)")
            return nil
        }
        var out = ServiceFieldNames()
        for entry in entries where entry.value.entries != nil {
            let path = "serviceApp.fieldNames.\(entry.key)"
            guard Self.serviceRouteNames.contains(entry.key) else {
                d.error(
                    entry.keyMark, path,
                    "'\(entry.key)' is no route of the profile\(Diagnostics.suggestion(entry.key, Self.serviceRouteNames)) "
                        + "(a mapping here renames members in the bodies and answers of that route only: "
                        + "\(Self.serviceRouteNames.joined(separator: ", ")))")
                continue
            }
            out.byRoute[entry.key] = scopedFieldNames(entry.value.entries ?? [], path)
        }
        let plain = scopedFieldNames(entries.filter { $0.value.entries == nil }, "serviceApp.fieldNames")
        (out.everywhere, out.atPath) = (plain.everywhere, plain.atPath)
        return out
    }

    /// One scope's renames: each service name non-empty and given to one seed name only where the two would meet
    /// (answers are read back through the inverse).
    private mutating func scopedFieldNames(_ entries: [YAMLMapEntry], _ path: String) -> ServiceFieldNames {
        var out = ServiceFieldNames()
        var seedNameOf: [String: String] = [:]
        for entry in entries {
            let field = "\(path).\(entry.key)"
            guard let name = d.string(entry.value, field) else { continue }
            let seedPath = entry.key.split(separator: ".", omittingEmptySubsequences: false)
            let place = seedPath.count > 1 ? ServiceFieldNames.parent(of: entry.key) + "." : ""
            if name.isEmpty || name.contains(".") {
                d.error(entry.value.mark, field, "the service's name must not be empty or hold a dot")
            } else if seedPath.contains(where: \.isEmpty) {
                d.error(entry.keyMark, field, "'\(entry.key)' is not a member name or a dotted path (call.id)")
            } else if let other = seedNameOf[place + name] {
                d.error(
                    entry.value.mark, field,
                    "'\(name)' is already the service's name for '\(other)'; answers could not be read back")
            } else {
                seedNameOf[place + name] = entry.key
                if seedPath.count > 1 { out.atPath[entry.key] = name } else { out.everywhere[entry.key] = name }
            }
        }
        return out
    }

    /// A push-service target's `values:` (the engine's value maps): refused, since no push-service request or
    /// answer goes through them; accepting the block would let a target believe its values were mapped.
    mutating func refuseValueMaps(_ root: YAMLNode) {
        guard let e = root.entries?.first(where: { $0.key == "values" }) else { return }
        d.error(
            e.keyMark, "values",
            "is not used by the \(PushServiceProfile.profileName) profile; ringcheck sends the seed values "
                + "as they are (serviceApp.fieldNames renames members, not values): remove the block")
    }

    /// The route names a `serviceApp.routes` may map (the push-service profile's).
    static var serviceRouteNames: [String] { PushServiceRoutes.names }
}
