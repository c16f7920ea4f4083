import JSON

extension CallService {
    // MARK: Event feed

    /// One page of the event feed of `user`'s installation `installationId`, after `cursor`.
    ///
    /// Cursors are decimal strings. No cursor starts at the oldest retained event. A cursor older
    /// than what retention kept, or one this backend never issued, gets `gap: true` together with
    /// every retained event: the device must re-read the calls it cares about. An installation
    /// that is not yet known is bound to the user on first read; another user's is refused.
    public func events(user: BackendUser, installationId: String, cursor: String?, limit: Int?) -> APIResult {
        // Expiry is due work too: a reader must see `unanswered` as soon as the deadline passes.
        _ = try? expireDueCalls()
        return run { tx, now in
            try validateIdentifier(installationId, field: "installationId")
            switch try tx.installationOwner(installationId) {
            case nil: try tx.bindInstallation(installationId, to: user.userId, nowMs: now)
            case user.userId?: break
            default: throw APIError(403, "installation_not_yours", "this installation is registered to another user")
            }
            let pageSize = min(max(limit ?? 100, 1), 500)
            let pruned = try tx.prunedThrough(userId: user.userId)
            let latest = try tx.latestEventSeq()
            var after = pruned
            var gap = false
            if let cursor, !cursor.isEmpty {
                if let position = Int64(cursor), position >= 0, String(position) == cursor, position <= latest {
                    if position < pruned { gap = true } else { after = position }
                } else if defects.contains(.cursorAheadNoGap), let position = Int64(cursor), position > latest {
                    after = position  // as if the reader were up to date
                } else {
                    gap = true  // never issued by this backend
                }
                if gap && defects.contains(.silentGap) {
                    gap = false
                    if let position = Int64(cursor), position <= latest { after = max(position, 0) }
                }
            }
            let page = try tx.events(
                userId: user.userId, installationId: installationId, afterSeq: after, limit: pageSize)
            // A short page read everything up to `latest` in this transaction: the cursor may skip past it.
            let next = page.count < pageSize ? max(latest, after) : (page.last?.seq ?? after)
            return APIResult(
                status: 200,
                json: [
                    "events": .array(page.map(\.body)), "nextCursor": .string(String(next)), "gap": .bool(gap),
                ])
        }
    }
}
