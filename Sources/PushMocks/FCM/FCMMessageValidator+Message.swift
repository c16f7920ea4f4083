import JSON

/// The parts of `FCMMessageValidator.validate(_:)`, one per part of a message, in the order FCM checks them.
extension FCMMessageValidator {
    // MARK: Target

    /// The message's one target (`token`, `topic`, `condition` or `fid`), checked as FCM checks it.
    func target(of message: [String: JSONValue]) throws(GoogleError) -> FCMTarget {
        var targets: [FCMTarget] = []
        for kind in [FCMTarget.Kind.token, .topic, .condition, .fid] {
            guard let v = message[kind.rawValue] else { continue }
            guard case .string(let s) = v else { throw typeError("message.\(kind.rawValue)", "TYPE_STRING", v) }
            if targets.first != nil {
                throw GoogleError.invalidArgument(
                    "Invalid JSON payload received. Oneof field 'target' is already set. Cannot set '\(kind.rawValue)'",
                    field: "message")
            }
            targets.append(FCMTarget(kind: kind, value: s))
        }
        guard let target = targets.first, !target.value.isEmpty else {
            throw GoogleError.invalidArgument("Recipient of the message is not set.", field: "message")
        }
        switch target.kind {
        case .token, .fid:
            guard target.value.utf8.count <= 4096, target.value.utf8.allSatisfy(Self.isTokenByte) else {
                throw GoogleError.invalidArgument(
                    "The registration token is not a valid FCM registration token",
                    field: "message.\(target.kind.rawValue)")
            }
        case .topic:
            let name = target.value.hasPrefix("/topics/") ? String(target.value.dropFirst(8)) : target.value
            guard !name.isEmpty, name.utf8.count <= 900, name.utf8.allSatisfy(Self.isTopicByte) else {
                throw GoogleError.invalidArgument("Invalid topic name \(target.value)", field: "message.topic")
            }
        case .condition:
            break
        }
        return target
    }

    // MARK: Data and notification

    /// `message.data` and `message.notification`, counting their bytes toward the payload limit.
    func validateDataAndNotification(
        of message: [String: JSONValue], into info: inout FCMMessageInfo, bytes payloadBytes: inout Int
    ) throws(GoogleError) {
        if let data = message["data"] {
            info.data = try stringMap(data, at: "message.data", checkReserved: true, bytes: &payloadBytes)
        }
        if let n = message["notification"] {
            let notification = try object(n, at: "message.notification", known: Self.notificationFields)
            for (key, value) in notification where value.stringValue == nil {
                throw typeError("message.notification.\(key)", "TYPE_STRING", value)
            }
            info.hasNotification = true
            payloadBytes += n.bytes().count
        }
    }

    // MARK: Platform blocks

    /// `message.android`: its priority, TTL and data (`FCMAppData`) go into `info`, its data and notification count
    /// toward the limit.
    func validateAndroid(_ a: JSONValue, into info: inout FCMMessageInfo, bytes payloadBytes: inout Int)
        throws(GoogleError)
    {
        let android = try object(a, at: "message.android", known: Self.androidFields)
        if let p = android["priority"] {
            guard case .string(let s) = p, ["NORMAL", "HIGH"].contains(s.uppercased()) else {
                throw GoogleError.invalidArgument(
                    "Invalid value at 'message.android.priority' "
                        + "(type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), \(p)",
                    field: "message.android.priority")
            }
            info.priority = s.uppercased()
        }
        if let t = android["ttl"] {
            info.ttlSeconds = try Self.ttl(t)
        }
        if let d = android["data"] {
            let data = try stringMap(d, at: "message.android.data", checkReserved: true, bytes: &payloadBytes)
            // What the app receives (`FCMAppData`): android.data, when set, replaces message.data.
            if FCMAppData.isPresent(d) { info.data = data }
        }
        if let n = android["notification"] {
            guard case .object = n else { throw typeError("message.android.notification", "TYPE_MESSAGE", n) }
            info.hasNotification = true
            payloadBytes += n.bytes().count
        }
        for key in ["collapseKey", "restrictedPackageName"] {
            if let v = android[key], v.stringValue == nil {
                throw typeError("message.android.\(key)", "TYPE_STRING", v)
            }
        }
        for key in ["directBootOk", "restrictedSatelliteOk", "bandwidthConstrainedOk"] {
            if let v = android[key], v.boolValue == nil {
                throw typeError("message.android.\(key)", "TYPE_BOOL", v)
            }
        }
        if let o = android["fcmOptions"] {
            _ = try object(o, at: "message.android.fcm_options", known: Self.fcmOptionsFields)
        }
    }

    /// `message.apns`: string headers and an object payload (neither counts toward the limit).
    func validateAPNs(_ a: JSONValue) throws(GoogleError) {
        let apns = try object(a, at: "message.apns", known: Self.apnsFields)
        if let h = apns["headers"] {
            var ignored = 0
            _ = try stringMap(h, at: "message.apns.headers", checkReserved: false, bytes: &ignored)
        }
        if let p = apns["payload"], p.objectValue == nil {
            throw typeError("message.apns.payload", "TYPE_MESSAGE", p)
        }
    }

    /// `message.webpush`: string headers and data (neither counts toward the limit).
    func validateWebpush(_ w: JSONValue) throws(GoogleError) {
        let webpush = try object(w, at: "message.webpush", known: Self.webpushFields)
        var ignored = 0
        if let h = webpush["headers"] {
            _ = try stringMap(h, at: "message.webpush.headers", checkReserved: false, bytes: &ignored)
        }
        if let d = webpush["data"] {
            _ = try stringMap(d, at: "message.webpush.data", checkReserved: false, bytes: &ignored)
        }
    }
}
