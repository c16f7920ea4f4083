import PushMocks
import Reports

/// What a device's evidence says of the streams its provider refused during the scenario (`StreamRefusal`):
/// "no push reached b-ipad" alone hides that APNs refused a second stream on a connection whose token was not
/// yet accepted, as real APNs does — a client library that ignores the refusal loses that push.
///
/// ```swift
/// let items = StreamRefusalEvidence.items(mocks.log.refusals(sinceMs: startedWallMs), device: d,
///                                         startedMs: startedWallMs)
/// // [note "APNs (production) refused a second stream on a connection whose token was not yet accepted"]
/// ```
enum StreamRefusalEvidence {
    static func items(_ refusals: [StreamRefusal], device d: DeviceIdentity, startedMs: Int64) -> [EvidenceItem] {
        let mine = refusals.filter { r in
            r.mock == d.kind.carrier.id
                && (r.environment == nil || d.environment == nil || r.environment == d.environment)
        }
        guard !mine.isEmpty else { return [] }
        var sentences: [String] = []
        for r in mine where !sentences.contains(r.sentence) { sentences.append(r.sentence) }
        let total = mine.map(\.count).reduce(0, +)
        let at = mine.map { "+\($0.atMs - startedMs) ms" }.prefix(5).joined(separator: ", ")
        return [
            EvidenceItem(
                kind: .note, title: sentences.joined(separator: "; "),
                text: "\(total) stream\(total == 1 ? "" : "s") refused during the scenario (at \(at)) on "
                    + "\(Set(mine.map(\.connectionID)).count) connection(s). A refused stream's headers are never "
                    + "read, so which device it was for is not known; a client library that does not retry a "
                    + "refused stream (REFUSED_STREAM) loses that push.")
        ]
    }
}
