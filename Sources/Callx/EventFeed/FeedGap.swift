import Conformance
import Foundation
import JSON

/// How ringcheck reads a feed page's gap signal.
///
/// The seed asks for "events and next cursor, or an explicit gap" and names no shape, so backends
/// say it in their own words: `gap: true`, a gap object (`{"reason": …, "resumeCursor": …}`), a
/// reason text, a count of lost events. Any of those is explicit; `false`, `null`, absent and empty
/// say "no gap". A page that says nothing still reads as no gap, so a feed that skips events
/// silently keeps failing the gap checks.
public enum FeedGap {
    /// Whether `value` (the member the target keeps the gap in) signals a gap.
    public static func isSignalled(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let b)?: return b
        // A count of lost events (0: none lost).
        case .number(let n)?: return (Double(n) ?? 0) != 0
        // A reason such as "cursorUnknownOrExpired"; "false" is a boolean sent as text, not a reason.
        case .string(let s)?:
            let text = s.trimmingCharacters(in: .whitespaces).lowercased()
            return !text.isEmpty && text != "false"
        case .array(let items)?: return !items.isEmpty
        case .object(let members)?: return !members.isEmpty
        }
    }

    /// The page in the reference shape: `gap` as the boolean the checks compare, whatever the
    /// backend sent there.
    static func canonical(_ page: JSONValue) -> JSONValue {
        guard page.objectValue != nil else { return page }
        return page.setting("gap", to: .bool(isSignalled(page["gap"])))
    }
}
