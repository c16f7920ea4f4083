import Foundation
import InputLimits
import JSON

extension TargetMapping {
    /// The canonical form of the target's `status` and `json` for `operation`.
    func normalize(_ operation: TargetOperation, status: Int, json: JSONValue?) -> NormalizedResponse {
        let r = self[operation].response
        if operation == .events, r.gapStatuses.contains(status) { return gapAnswer(json.map(incoming), r) }
        let canonicalStatus = r.statuses[status] ?? status
        guard let json = json.map(incoming) else { return NormalizedResponse(status: canonicalStatus, json: nil) }
        let success = (200..<300).contains(canonicalStatus)
        var media: JSONValue?
        if success, let path = r.media { media = path.isEmpty ? json : json.value(atPath: path) }
        if success, var m = media {
            for (name, source) in r.mediaFields.sorted(by: { $0.key < $1.key }) {
                if let v = Self.read(source, in: json) { m = m.setting(name, to: v) }
            }
            media = m
        }
        if operation == .events { return eventPage(json, r, status: canonicalStatus) }
        if operation == .mediaSession, success, let media {
            return NormalizedResponse(status: canonicalStatus, json: media, media: media)
        }
        return NormalizedResponse(status: canonicalStatus, json: r.lifted(json), media: media)
    }
}

extension TargetMapping {
    /// The value `source` names in `json`, if there is one.
    static func read(_ source: FieldSource, in json: JSONValue) -> JSONValue? {
        switch source {
        case .path(let path): return json.value(atPath: path)
        case .jwtExpiry(let path):
            guard let token = json.value(atPath: path)?.stringValue, let exp = jwtClaims(token)?["exp"],
                let seconds = Double(exp.serialized()),
                let ms = CheckedNumber.milliseconds(
                    seconds: seconds, maxSeconds: Double(CheckedNumber.epochMs.upperBound / 1000))
            else { return nil }
            return .number(String(ms))
        }
    }

    /// The claims of a compact JWT (unverified: ringcheck only reads what the backend said).
    static func jwtClaims(_ token: String) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONValue.parse(Array(data))
    }
}
