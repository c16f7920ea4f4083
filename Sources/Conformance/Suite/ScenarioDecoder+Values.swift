import Foundation
import JSON

// MARK: - Values, names and matchers shared by the steps

extension ScenarioDecoder {
    /// `as: user` or `device: name`; exactly one when `required`, at most one otherwise.
    package mutating func actor(_ f: [String: YAMLMapEntry], _ path: String, node: YAMLNode, required: Bool)
        -> StepActor?
    {
        switch (f["as"], f["device"]) {
        case (let a?, nil): return user(a.value, path + ".as").map(StepActor.user)
        case (nil, let dev?): return device(dev.value, path + ".device").map(StepActor.device)
        case (let a?, _?):
            d.error(a.keyMark, path, "give either 'as' (a user) or 'device', not both")
            return nil
        case (nil, nil):
            if required {
                d.error(node.mark, path, "missing 'as' (a user) or 'device' (one of the scenario's devices)")
            }
            return nil
        }
    }

    package mutating func user(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = d.string(node, path) else { return nil }
        guard userSet.contains(name) else {
            d.error(
                node.mark, path,
                "unknown user '\(name)'\(Diagnostics.suggestion(name, users)) (users: \(users.joined(separator: ", ")); declare others under 'users')"
            )
            return nil
        }
        return name
    }

    package mutating func device(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = d.string(node, path) else { return nil }
        guard deviceNames.contains(name) else {
            let names = devices.map(\.name)
            d.error(
                node.mark, path,
                "unknown device '\(name)'\(Diagnostics.suggestion(name, names)) (devices: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
            )
            return nil
        }
        return name
    }

    /// Device names: one name or a list.
    package mutating func deviceList(_ node: YAMLNode, _ path: String) -> [String]? {
        guard let list = d.stringList(node, path) else { return nil }
        if list.isEmpty { d.error(node.mark, path, "name at least one device") }
        var ok = true
        for (i, name) in list.enumerated() where !deviceNames.contains(name) {
            let names = devices.map(\.name)
            let mark = node.items?[i].mark ?? node.mark
            d.error(mark, path, "unknown device '\(name)'\(Diagnostics.suggestion(name, names))")
            ok = false
        }
        return ok ? list : nil
    }

    /// A value with its references checked: each names a value saved by an earlier step, or a built-in root.
    package mutating func value(_ node: YAMLNode, _ path: String) -> JSONValue {
        let json = node.json
        checkReferences(node, path)
        return json
    }

    private mutating func checkReferences(_ node: YAMLNode, _ path: String) {
        switch node.content {
        case .sequence(let items):
            for (i, item) in items.enumerated() { checkReferences(item, "\(path)[\(i)]") }
        case .mapping(let entries):
            for e in entries { checkReferences(e.value, "\(path).\(e.key)") }
        case .scalar:
            guard case .string(let text) = node.json else { return }
            var refs = ValueReference.interpolations(in: text)
            if text.hasPrefix("$"), !text.hasPrefix("$$") {
                guard let ref = ValueReference(parsing: text) else {
                    d.error(
                        node.mark, path, "'\(text)' is not a reference such as $call.callId (write $$ for a literal $)")
                    return
                }
                refs = [ref]
            }
            for ref in refs { check(ref, node.mark, path) }
        }
    }

    private mutating func check(_ ref: ValueReference, _ mark: YAMLMark, _ path: String) {
        switch ref.name {
        case "devices":
            let parts = ref.path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if !deviceNames.contains(parts[0]) {
                let names = devices.map(\.name)
                d.error(mark, path, "'\(ref)' names no device\(Diagnostics.suggestion(parts[0], names))")
            } else if parts.count != 2 || !ValueReference.deviceFields.contains(parts[1]) {
                d.error(
                    mark, path,
                    "'\(ref)' needs one of \(ValueReference.deviceFields.map { ".\($0)" }.joined(separator: ", ")) after the device\(Diagnostics.suggestion(parts.count > 1 ? parts[1] : "", ValueReference.deviceFields))"
                )
            }
        case "run":
            if !ValueReference.runFields.contains(ref.path) {
                d.error(
                    mark, path,
                    "'\(ref)' needs one of \(ValueReference.runFields.map { ".\($0)" }.joined(separator: ", ")) after run"
                )
            }
        case "users":
            let parts = ref.path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if !userSet.contains(parts[0]) {
                d.error(mark, path, "'\(ref)' names no user\(Diagnostics.suggestion(parts[0], users))")
            } else if parts.count != 2 || !ValueReference.userFields.contains(parts[1]) {
                d.error(mark, path, "'\(ref)' needs .userId after the user")
            }
        default:
            if !saved.contains(ref.name) {
                let hint = Diagnostics.suggestion(ref.name, saved.sorted()).replacingOccurrences(of: "'", with: "'$")
                d.error(mark, path, "'\(ref)' refers to nothing saved by an earlier step\(hint)")
            }
        }
    }

    /// A name to save a value under.
    package mutating func saveName(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = d.string(node, path) else { return nil }
        if ValueReference.builtIns.contains(name) {
            d.error(node.mark, path, "'\(name)' is reserved; choose another name")
            return nil
        }
        guard ValueReference(parsing: "$" + name)?.path == "" else {
            d.error(node.mark, path, "'\(name)' is not a name (letters, digits, - and _)")
            return nil
        }
        return name
    }

    /// A requirement a check fails: it must be in the catalogue and among the scenario's requirements.
    package mutating func requirement(_ node: YAMLNode, _ path: String) -> String? {
        guard let id = d.string(node, path) else { return nil }
        if let catalogue, catalogue[id] == nil {
            d.error(node.mark, path, "unknown requirement '\(id)'\(Diagnostics.suggestion(id, catalogue.ids))")
            return nil
        }
        if !requirements.contains(id) {
            d.error(node.mark, path, "'\(id)' is not in the scenario's requirements; add it there")
            return nil
        }
        return id
    }

    // MARK: - Response expectations and matchers

    package mutating func responseExpectation(_ node: YAMLNode, _ path: String) -> ResponseExpectation? {
        guard let f = d.mapping(node, path, known: ["status", "body", "bodyWhen", "requirement"]) else { return nil }
        var out = ResponseExpectation()
        if let e = f["status"] {
            if let items = e.value.items {
                var statuses: [Int] = []
                for (i, item) in items.enumerated() {
                    if let n = d.int(item, "\(path).status[\(i)]", min: 100) { statuses.append(n) }
                }
                out.status = statuses
                if items.isEmpty { d.error(e.value.mark, path + ".status", "name at least one status") }
            } else if e.value.json == .string("any") {
                out.anyStatus = true
            } else {
                out.status = d.int(e.value, path + ".status", min: 100).map { [$0] }
            }
            if let statuses = out.status, let bad = statuses.first(where: { $0 > 599 }) {
                d.error(e.value.mark, path + ".status", "\(bad) is not an HTTP status")
            }
        }
        if let e = f["body"] { out.body = matchers(e.value, path + ".body") }
        if let e = f["bodyWhen"] {
            if e.value.json == .string("2xx") {
                out.bodyOnlyOnSuccess = true
            } else {
                d.error(e.value.mark, path + ".bodyWhen", "expected 2xx (judge the body only on a 2xx answer)")
            }
        }
        if let e = f["requirement"] { out.requirement = requirement(e.value, path + ".requirement") }
        return out
    }

    /// `path: condition` pairs; a scalar condition means `equals`.
    mutating func matchers(_ node: YAMLNode, _ path: String) -> [PathMatcher] {
        guard let entries = node.entries else {
            d.error(node.mark, path, "expected a mapping of JSON paths to conditions, got \(node.kindName)")
            return []
        }
        var out: [PathMatcher] = []
        for entry in entries {
            let found = conditions(entry.value, "\(path).\(entry.key)")
            // `requirement` beside the conditions: the requirement this field evidences, charged when it differs.
            let own = entry.value.entries?.first { $0.key == "requirement" }.flatMap {
                requirement($0.value, "\(path).\(entry.key).requirement")
            }
            if !found.isEmpty {
                out.append(PathMatcher(path: entry.key, conditions: found, requirement: own, mark: entry.keyMark))
            }
        }
        return out
    }

    mutating func conditions(_ node: YAMLNode, _ path: String) -> [MatchCondition] {
        switch node.content {
        case .scalar: return [.equals(value(node, path))]
        case .sequence:
            d.error(node.mark, path, "a list is ambiguous here: write 'equals: [...]' or 'oneOf: [...]'")
            return []
        case .mapping(let entries):
            guard let f = d.mapping(node, path, known: MatchCondition.keywords + ["requirement"]) else { return [] }
            if entries.allSatisfy({ $0.key == "requirement" }) {
                d.error(node.mark, path, "name a condition: \(Diagnostics.list(MatchCondition.keywords))")
            }
            var out: [MatchCondition] = []
            for entry in entries where f[entry.key] != nil {
                let p = "\(path).\(entry.key)"
                switch entry.key {
                case "equals": out.append(.equals(value(entry.value, p)))
                case "notEquals": out.append(.notEquals(value(entry.value, p)))
                case "matches":
                    guard let pattern = d.string(entry.value, p) else { break }
                    do {
                        _ = try Regex(pattern)
                        out.append(.matches(pattern))
                    } catch {
                        d.error(entry.value.mark, p, "'\(pattern)' is not a valid regular expression: \(error)")
                    }
                case "oneOf":
                    guard let items = entry.value.items, !items.isEmpty else {
                        d.error(entry.value.mark, p, "expected a non-empty list of values, got \(entry.value.kindName)")
                        break
                    }
                    var values: [JSONValue] = []
                    for (i, item) in items.enumerated() { values.append(value(item, "\(p)[\(i)]")) }
                    out.append(.oneOf(values))
                case "type":
                    if let t = d.choice(entry.value, p, JSONType.allCases.map(\.rawValue)).flatMap(JSONType.init) {
                        out.append(.type(t))
                    }
                case "range":
                    if let bounds = range(entry.value, p) { out.append(.range(min: bounds.0, max: bounds.1)) }
                case "absent":
                    if let b = d.bool(entry.value, p) { out.append(.absent(b)) }
                case "within":
                    if let w = within(entry.value, p) { out.append(w) }
                default: break
                }
            }
            return out
        }
    }

    /// `{min: 1, max: 5}` or `[1, 5]`; each bound a number or a reference.
    mutating func range(_ node: YAMLNode, _ path: String) -> (JSONValue?, JSONValue?)? {
        var lower: YAMLNode?
        var upper: YAMLNode?
        if let items = node.items, items.count == 2 {
            lower = items[0]
            upper = items[1]
        } else if let f = d.mapping(node, path, known: ["min", "max"]) {
            lower = f["min"]?.value
            upper = f["max"]?.value
            if lower == nil && upper == nil { d.error(node.mark, path, "give 'min', 'max' or both") }
        } else {
            return nil
        }
        var ok = true
        func bound(_ n: YAMLNode?, _ name: String) -> JSONValue? {
            guard let n else { return nil }
            let v = value(n, "\(path).\(name)")
            switch v {
            case .number: return v
            case .string(let s) where ValueReference(parsing: s) != nil: return v
            default:
                d.error(n.mark, "\(path).\(name)", "expected a number or a reference, got \(n.kindName)")
                ok = false
                return nil
            }
        }
        let bounds = (bound(lower, "min"), bound(upper, "max"))
        return ok ? bounds : nil
    }

    /// `{of: $call.createdAtMs, min: 0, max: 3600000}`: `of` a number or a reference, the bounds numbers.
    mutating func within(_ node: YAMLNode, _ path: String) -> MatchCondition? {
        guard let f = d.mapping(node, path, known: ["of", "min", "max"]) else { return nil }
        guard let ofNode = f["of"]?.value else {
            d.error(node.mark, path, "missing field 'of' (the value the distance is measured from)")
            return nil
        }
        let of = value(ofNode, "\(path).of")
        switch of {
        case .number: break
        case .string(let s) where ValueReference(parsing: s) != nil: break
        default:
            d.error(ofNode.mark, "\(path).of", "expected a number or a reference, got \(ofNode.kindName)")
            return nil
        }
        var ok = true
        func bound(_ name: String) -> Double? {
            guard let n = f[name]?.value else { return nil }
            guard case .number = n.json, let v = n.json.doubleValue else {
                d.error(n.mark, "\(path).\(name)", "expected a number of milliseconds, got \(n.kindName)")
                ok = false
                return nil
            }
            return v
        }
        let lower = bound("min")
        let upper = bound("max")
        if ok && lower == nil && upper == nil { d.error(node.mark, path, "give 'min', 'max' or both") }
        return ok && (lower != nil || upper != nil) ? .within(of: of, min: lower, max: upper) : nil
    }
}
