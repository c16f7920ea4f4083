import HTTP

/// The header fields the APNs mock reads, each the first of its name as `HTTPHeaders`' subscript
/// gives it, found in one pass: looking each up by name compared every field's name every time.
///
/// Not copyable, so the checks borrow it: copies of its seven strings (a retain and a release of each)
/// cost about 25 reference-count operations per push.
struct APNsRequestHeaders: ~Copyable {
    var authorization: String?
    var apnsID: String?
    var topic: String?
    var pushType: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?

    init(_ headers: HTTPHeaders) {
        // Names are stored lower-case; the byte count picks the one candidate to compare with.
        for (name, value) in headers.fields {
            switch name.utf8.count {
            case 7: if apnsID == nil && name == "apns-id" { apnsID = value }
            case 10: if topic == nil && name == "apns-topic" { topic = value }
            case 13:
                if name == "authorization" {
                    if authorization == nil { authorization = value }
                } else if priority == nil && name == "apns-priority" {
                    priority = value
                }
            case 14: if pushType == nil && name == "apns-push-type" { pushType = value }
            case 15: if expiration == nil && name == "apns-expiration" { expiration = value }
            case 16: if collapseID == nil && name == "apns-collapse-id" { collapseID = value }
            default: break
            }
        }
    }
}
