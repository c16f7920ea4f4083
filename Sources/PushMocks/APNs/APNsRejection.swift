/// Why the APNs mock refused a request: the reason it answers with and, for the capture, the details.
struct APNsRejection: Error {
    var reason: APNsReason
    var detail: String?
    /// The `timestamp` of a 410, ms.
    var timestampMs: Int64?

    init(_ reason: APNsReason, _ detail: String? = nil, timestampMs: Int64? = nil) {
        self.reason = reason
        self.detail = detail
        self.timestampMs = timestampMs
    }
}
