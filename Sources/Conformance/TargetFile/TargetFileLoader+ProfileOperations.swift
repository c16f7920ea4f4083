extension TargetFileDecoder {
    /// `profileOperations: {NAME: /path, …}` (the paths of a profile's own operations, e.g. the onesignal profile's
    /// `pushToUser`, `pushBroadcast`, `voipPush`) and `unconfigured: {baseURL}` (a second instance of the backend
    /// started without its push provider's settings; it gives the target the `unconfigured` capability).
    mutating func decodeProfileOperations(
        _ operations: YAMLMapEntry?, _ unconfigured: YAMLMapEntry?, into file: inout TargetFile
    ) {
        if let e = operations, let entries = e.value.entries {
            for entry in entries {
                let field = "profileOperations.\(entry.key)"
                guard let path = d.nonEmptyString(entry.value, field) else { continue }
                if !path.hasPrefix("/") {
                    d.error(entry.value.mark, field, "'\(path)' is not a path under baseURL (/…)")
                    continue
                }
                file.profileOperationPaths[entry.key] = path
            }
        } else if let e = operations {
            d.error(e.value.mark, "profileOperations", "expected a mapping of operation names to paths")
        }
        if let e = unconfigured, let f = d.mapping(e.value, "unconfigured", known: ["baseURL"], required: ["baseURL"]),
            let url = f["baseURL"].flatMap({ d.nonEmptyString($0.value, "unconfigured.baseURL") })
        {
            if !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                d.error(f["baseURL"]!.value.mark, "unconfigured.baseURL", "'\(url)' is not an http:// or https:// URL")
            } else {
                var trimmed = url
                while trimmed.hasSuffix("/") { trimmed.removeLast() }
                file.unconfiguredBaseURL = trimmed
                file.capabilities.insert(.unconfigured)
            }
        }
    }
}
