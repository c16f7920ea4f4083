import Conformance
import JSON

extension TargetMapping {
    /// A feed page in the reference shape: `events`, `nextCursor` and `gap` from where the target
    /// keeps them, the gap read as a boolean (`FeedGap`) on a 2xx page.
    func eventPage(_ json: JSONValue, _ r: ResponseMapping, status: Int) -> NormalizedResponse {
        var doc: [(key: String, value: JSONValue)] = []
        for name in ["events", "nextCursor", "gap"] {
            if let v = json.value(atPath: r.fields[name] ?? name) { doc.append((name, v)) }
        }
        let page = JSONValue.object(doc)
        let success = (200..<300).contains(status)
        return NormalizedResponse(status: status, json: success ? FeedGap.canonical(page) : page)
    }

    /// An answer with one of the target's gap statuses (`gapStatus: 410`): the status itself says
    /// "gap", so it reads as a 2xx page with `gap: true`, and whatever events and next cursor the
    /// body holds where the mapping says (a 410 may carry a cursor to resume from, or no body).
    func gapAnswer(_ json: JSONValue?, _ r: ResponseMapping) -> NormalizedResponse {
        var doc: [(key: String, value: JSONValue)] = []
        doc.append(("events", json?.value(atPath: r.fields["events"] ?? "events") ?? .array([])))
        if let next = json?.value(atPath: r.fields["nextCursor"] ?? "nextCursor") { doc.append(("nextCursor", next)) }
        doc.append(("gap", .bool(true)))
        return NormalizedResponse(status: 200, json: .object(doc))
    }
}
