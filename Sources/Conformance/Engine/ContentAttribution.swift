import JSON

/// Which of the requests ringcheck sent a provider request (a push, a OneSignal call) answers, told by its content:
/// the one request it fits, several it fits alike (unattributed: judged against none, since a guess could charge
/// the wrong one), or none. A profile narrows a `ContentCandidates` by what each request made unique.
///
/// ```swift
/// var candidates = ContentCandidates(requests.indices.filter { requests[$0].sentAtMs <= capture.arrivalMs })
/// candidates.prefer { requests[$0].callId == push.callId }
/// if case .request(let i) = candidates.attribution { judge(push, against: requests[i]) }
/// ```
public enum ContentAttribution: Sendable, Equatable {
    /// The index of the one request it answers.
    case request(Int)
    /// Two requests or more it fits alike, by index, ascending.
    case unattributed([Int])
    /// No request can have caused it.
    case none
}

/// The requests (by index) a captured request may answer, narrowed one content trait at a time.
///
/// ```swift
/// var c = ContentCandidates([0, 1, 2])
/// c.prefer { titles[$0] == "Hi" }  // kept only when some candidate has that title
/// c.attribution                  // .request(1), or .unattributed([1, 2])
/// ```
public struct ContentCandidates: Sendable, Equatable {
    public private(set) var indices: [Int]

    public init(_ indices: [Int]) { self.indices = indices.sorted() }

    /// Keeps the candidates that `fits`, when at least one does: a trait no candidate shows (a field the backend
    /// maps wrongly) leaves the request tied, to be charged for the mapping, not unattributed.
    public mutating func prefer(_ fits: (Int) -> Bool) {
        let kept = indices.filter(fits)
        if !kept.isEmpty { indices = kept }
    }

    /// Keeps only the candidates that `fits` (a trait that rules a request out, e.g. sent after the arrival).
    public mutating func require(_ fits: (Int) -> Bool) { indices = indices.filter(fits) }

    public var attribution: ContentAttribution {
        switch indices.count {
        case 0: return .none
        case 1: return .request(indices[0])
        default: return .unattributed(indices)
        }
    }

    /// Every string, number text and boolean text in `value` at any depth, including inside strings that are
    /// themselves JSON texts (OneSignal sends Android's `custom` as one): where a request's marker or values may
    /// sit once a provider or service has nested them.
    public static func strings(in value: JSONValue) -> Set<String> {
        var out: Set<String> = []
        collect(value, into: &out, depth: 0)
        return out
    }

    private static func collect(_ v: JSONValue, into out: inout Set<String>, depth: Int) {
        guard depth < 32 else { return }
        switch v {
        case .object(let members):
            for m in members { collect(m.value, into: &out, depth: depth + 1) }
        case .array(let items):
            for item in items { collect(item, into: &out, depth: depth + 1) }
        case .string(let s):
            out.insert(s)
            if let first = s.first, first == "{" || first == "[", let inner = try? JSONValue.parse(s) {
                collect(inner, into: &out, depth: depth + 1)
            }
        case .number(let s):
            out.insert(s)
        case .bool(let b):
            out.insert(b ? "true" : "false")
        case .null:
            break
        }
    }
}
