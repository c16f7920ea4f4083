/// "Did you mean" suggestions and the echo of what the user typed, with bounded work and bounded
/// output whatever the input's length: a 100,000-character scenario ID is refused at once with a
/// message of a few lines, not after seconds of edit distances and with the whole ID printed back.
public enum Suggestion {
    /// Inputs longer than this get no suggestion: no name ringcheck knows is this long.
    public static let inputLimit = 200

    /// `text` for an error message: itself, or its first 80 characters and `… (N bytes)` (`DiagnosticText`).
    public static func shown(_ text: some StringProtocol) -> String { DiagnosticText.short(text) }

    /// The Levenshtein distance of `a` and `b` when it is at most `limit`, else nil. Only the band of
    /// `limit` cells either side of the diagonal is filled, so the work is at most
    /// `(a.count + 1) × (2 × limit + 1)`; lengths that differ by more than `limit` are answered at once.
    public static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
        let a = Array(a)
        let b = Array(b)
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let beyond = limit + 1
        var previous = (0...b.count).map { $0 <= limit ? $0 : beyond }
        var current = [Int](repeating: beyond, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            current[0] = i <= limit ? i : beyond
            // The cell left of the band holds row i - 2's value; the cells right of it were never written.
            if low > 1 { current[low - 1] = beyond }
            var best = current[0]
            for j in stride(from: low, through: high, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1, beyond)
                best = min(best, current[j])
            }
            if best > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The candidate closest to `word` within `limit` edits (the first of equals), or nil; none for a
    /// word longer than `inputLimit`.
    public static func closest(to word: String, among candidates: [String], limit: Int) -> String? {
        guard word.utf8.count <= inputLimit else { return nil }
        var best: (name: String, distance: Int)?
        for c in candidates {
            guard let d = distance(word, c, limit: best.map { $0.distance - 1 } ?? limit) else { continue }
            best = (c, d)
        }
        return best?.name
    }
}
