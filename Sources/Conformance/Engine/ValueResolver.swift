import JSON

/// A `$name.path` that names nothing saved (a harness problem, not the backend's).
public struct ReferenceError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Replaces references (`$call.callId`, `${call.callId}` inside text, `$$` for a literal `$`) in
/// scenario values with what earlier steps saved and the built-in `devices` and `users` roots.
public struct ValueResolver: Sendable {
    package var saved: [String: JSONValue]

    func lookUp(_ ref: ValueReference) throws(ReferenceError) -> JSONValue {
        guard let root = saved[ref.name] else {
            throw ReferenceError(message: "\(ref): nothing was saved as '\(ref.name)' by an earlier step")
        }
        if ref.path.isEmpty { return root }
        guard let value = root.value(atPath: ref.path) else {
            throw ReferenceError(message: "\(ref): '\(ref.name)' has no value at '\(ref.path)'")
        }
        return value
    }

    package func resolve(_ value: JSONValue) throws(ReferenceError) -> JSONValue {
        switch value {
        case .string(let s): return try resolve(string: s)
        case .array(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try resolve(item)) }
            return .array(out)
        case .object(let members):
            var out: [(key: String, value: JSONValue)] = []
            for m in members { out.append((m.key, try resolve(m.value))) }
            return .object(out)
        default: return value
        }
    }

    func resolve(string s: String) throws(ReferenceError) -> JSONValue {
        if s.hasPrefix("$$") { return .string(String(s.dropFirst())) }
        if let ref = ValueReference(parsing: s), !s.contains("${") { return try lookUp(ref) }
        guard s.contains("${") else { return .string(s) }
        var out = ""
        var rest = Substring(s)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}"),
                let ref = ValueReference(parsing: "$" + rest[open.upperBound..<close])
            else {
                out += rest[open.lowerBound...]
                rest = ""
                break
            }
            out += Self.text(try lookUp(ref))
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return .string(out)
    }

    /// Text of a value: strings as they are, numbers as written, anything else as JSON.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: return value.serialized()
        }
    }

    /// A resolved value as text (for IDs in paths).
    package func string(_ value: JSONValue) throws(ReferenceError) -> String { Self.text(try resolve(value)) }

    /// Resolves every value a matcher compares with.
    package func resolve(_ matchers: [PathMatcher]) throws(ReferenceError) -> [PathMatcher] {
        var out: [PathMatcher] = []
        for m in matchers {
            var conditions: [MatchCondition] = []
            for c in m.conditions {
                switch c {
                case .equals(let v): conditions.append(.equals(try resolve(v)))
                case .notEquals(let v): conditions.append(.notEquals(try resolve(v)))
                case .oneOf(let vs):
                    var list: [JSONValue] = []
                    for v in vs { list.append(try resolve(v)) }
                    conditions.append(.oneOf(list))
                case .range(let lo, let hi):
                    conditions.append(
                        .range(
                            min: try lo.map { v throws(ReferenceError) in try resolve(v) },
                            max: try hi.map { v throws(ReferenceError) in try resolve(v) }))
                case .matches(let pattern): conditions.append(.matches(try string(.string(pattern))))
                case .within(let of, let lo, let hi): conditions.append(.within(of: try resolve(of), min: lo, max: hi))
                default: conditions.append(c)
                }
            }
            out.append(PathMatcher(path: m.path, conditions: conditions, requirement: m.requirement, mark: m.mark))
        }
        return out
    }
}

/// Evaluates resolved matchers on a JSON document.
package enum MatcherEvaluator {
    /// Every mismatch, one line each (`state: expected "accepted", got "ringing"`); empty when all hold.
    static func mismatches(_ matchers: [PathMatcher], in document: JSONValue) -> [String] {
        var out: [String] = []
        for m in matchers {
            let actual = document.value(atPath: m.path)
            for c in m.conditions {
                if let problem = check(c, actual) { out.append("\(m.path): \(problem)") }
            }
        }
        return out
    }

    /// The mismatches grouped by the requirement each charges: a field's own, else `fallback`; in the
    /// order the requirements first appear. A field below one that failed its own check is not judged: its
    /// value could not be read where it should be (`caller: {type: object, requirement: CALLX-CALL-3}` fails
    /// a flat snapshot, and `caller.userId: {equals: …}` beside it, charged to another requirement, is
    /// neither passed nor failed).
    package static func mismatchesByRequirement(_ matchers: [PathMatcher], in document: JSONValue, fallback: String?)
        -> [(requirement: String?, problems: [String])]
    {
        var out: [(requirement: String?, problems: [String])] = []
        let failedPaths = matchers.filter { !mismatches([$0], in: document).isEmpty }.map(\.path)
        for m in matchers {
            if failedPaths.contains(where: { m.path.hasPrefix($0 + ".") }) { continue }
            let problems = mismatches([m], in: document)
            guard !problems.isEmpty else { continue }
            let id = m.requirement ?? fallback
            if let i = out.firstIndex(where: { $0.requirement == id }) {
                out[i].problems += problems
            } else {
                out.append((id, problems))
            }
        }
        return out
    }

    package static func holds(_ matchers: [PathMatcher], in document: JSONValue) -> Bool {
        for m in matchers {
            let actual = document.value(atPath: m.path)
            for c in m.conditions where check(c, actual) != nil { return false }
        }
        return true
    }

    static func show(_ v: JSONValue?) -> String { v.map { $0.serialized() } ?? "absent" }

    /// A number as a person writes it: no `.0` on whole numbers.
    static func text(_ n: Double) -> String {
        n.rounded() == n && abs(n) < 9.0e15 ? String(Int64(n)) : String(n)
    }

    static func check(_ c: MatchCondition, _ actual: JSONValue?) -> String? {
        switch c {
        case .equals(let v):
            return actual == v ? nil : "expected \(v.serialized()), got \(show(actual))"
        case .notEquals(let v):
            return actual == v ? "expected anything but \(v.serialized()), got it" : nil
        case .oneOf(let vs):
            guard let actual, vs.contains(actual) else {
                return "expected one of \(JSONValue.array(vs).serialized()), got \(show(actual))"
            }
            return nil
        case .matches(let pattern):
            guard case .string(let s)? = actual else { return "expected text matching \(pattern), got \(show(actual))" }
            guard let regex = try? Regex(pattern) else { return "invalid pattern \(pattern)" }
            return (try? regex.wholeMatch(in: s)) != nil
                ? nil : "expected text matching \(pattern), got \(show(actual))"
        case .type(let t):
            guard let actual else { return "expected a \(t.rawValue), got absent" }
            let ok: Bool
            switch t {
            case .string: if case .string = actual { ok = true } else { ok = false }
            case .number: if case .number = actual { ok = true } else { ok = false }
            case .integer: ok = actual.isIntegerLiteral
            case .boolean: if case .bool = actual { ok = true } else { ok = false }
            case .object: ok = actual.objectValue != nil
            case .array: ok = actual.arrayValue != nil
            case .null: ok = actual.isNull
            }
            return ok ? nil : "expected a \(t.rawValue), got \(show(actual))"
        case .range(let lo, let hi):
            guard let n = actual?.doubleValue, case .number = actual! else {
                return "expected a number in range, got \(show(actual))"
            }
            if let lo = lo?.doubleValue, n < lo { return "expected at least \(lo), got \(show(actual))" }
            if let hi = hi?.doubleValue, n > hi { return "expected at most \(hi), got \(show(actual))" }
            return nil
        case .within(let of, let lo, let hi):
            guard let n = actual?.doubleValue, case .number = actual!, let base = of.doubleValue else {
                return "expected a number within range of \(of.serialized()), got \(show(actual))"
            }
            let distance = n - base
            if let lo, distance < lo {
                return "expected at least \(text(lo)) past \(of.serialized()), got \(show(actual)) (\(text(distance)))"
            }
            if let hi, distance > hi {
                return "expected at most \(text(hi)) past \(of.serialized()), got \(show(actual)) (\(text(distance)))"
            }
            return nil
        case .absent(let mustBeAbsent):
            if mustBeAbsent { return actual == nil ? nil : "expected absent, got \(show(actual))" }
            return actual == nil ? "expected present, got absent" : nil
        }
    }
}
