import Conformance
import JSON
import PushMocks

/// Which operation a OneSignal request answers, told by its content and never by the millisecond it arrived in:
/// the operations that had begun by then, narrowed by what each made unique — the External ID targeted (none for a
/// broadcast), the title and text, the data given, and last the app (standard or VoIP). A request still fitting more
/// than one operation is unattributed: no rule judges it, and the operations it fits are not judged on `delivered`.
///
/// ```swift
/// if case .request(let i) = OneSignalAttribution.of(request, operations, standard: s, voip: v) {
///     judge(request, against: operations[i])
/// }
/// ```
enum OneSignalAttribution {
    static func of(
        _ r: OneSignalRequest, _ all: [OneSignalOperation], standard: OneSignalApp, voip: OneSignalApp
    ) -> ContentAttribution {
        var candidates = ContentCandidates(Array(all.indices))
        candidates.require { all[$0].sentAtMs <= r.arrivalMs }
        // The traits a kit's defect is least likely to be about first; the app last, since sending through the
        // wrong app is a defect the rules must see on the right operation (VOIP-1), not a reason to tie elsewhere.
        let aliases = r.body.value(atPath: "include_aliases.external_id")?.arrayValue?.compactMap(\.stringValue)
        candidates.prefer { i in all[i].externalId.map { aliases?.contains($0) ?? false } ?? (aliases == nil) }
        let heading = r.body.value(atPath: "headings.en")?.stringValue
        let content = r.body.value(atPath: "contents.en")?.stringValue
        candidates.prefer { all[$0].title == heading && all[$0].body == content }
        candidates.prefer { all[$0].data.map { $0 == r.body["data"] } ?? false }
        let appId = r.body["app_id"]?.stringValue
        if appId == voip.appID || appId == standard.appID {
            candidates.prefer { (all[$0].kind == .voipPush) == (appId == voip.appID) }
        }
        return candidates.attribution
    }
}
