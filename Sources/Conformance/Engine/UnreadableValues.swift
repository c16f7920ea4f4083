import JSON

extension Target {
    /// `matchers` split into those `json` lets ringcheck judge and those on a value the target's mapping
    /// cannot read back (`TargetAPIMapping.unreadableValue(_:_:)`), each with why: a check on such a value
    /// is not applicable, for that check only.
    package func readable(_ matchers: [PathMatcher], in json: JSONValue) -> (
        judged: [PathMatcher], unreadable: [(path: String, reason: String)]
    ) {
        var judged: [PathMatcher] = []
        var unreadable: [(path: String, reason: String)] = []
        for m in matchers {
            let member = String(m.path.split(separator: ".").last ?? "")
            if let value = json.value(atPath: m.path), let why = apiMapping.unreadableValue(member, value) {
                unreadable.append((m.path, why))
            } else {
                judged.append(m)
            }
        }
        return (judged, unreadable)
    }
}
