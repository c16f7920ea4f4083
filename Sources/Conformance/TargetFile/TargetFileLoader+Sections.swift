import JSON

extension TargetFileDecoder {
    static let mocksKeys = [
        "host", "apnsPort", "apnsSandboxPort", "googlePort", "controlPort", "stateDir", "persistentCA", "bundleID",
        "projectID", "envFile", "jsonFile",
    ]

    /// `mocks:`: where ringcheck's mocks listen and where their settings are written.
    mutating func decodeMocks(_ node: YAMLNode) -> TargetMocks? {
        if node.json == .bool(true) { return TargetMocks() }
        guard let f = d.mapping(node, "mocks", known: Self.mocksKeys) else { return nil }
        var m = TargetMocks()
        func port(_ key: String) -> Int {
            guard let e = f[key], let n = d.int(e.value, "mocks." + key, min: 0) else { return 0 }
            if n > 65535 { d.error(e.value.mark, "mocks." + key, "\(n) is not a port (0-65535)") }
            return n
        }
        m.options.host = f["host"].flatMap { d.nonEmptyString($0.value, "mocks.host") } ?? m.options.host
        m.options.apnsPort = port("apnsPort")
        m.options.apnsSandboxPort = port("apnsSandboxPort")
        m.options.googlePort = port("googlePort")
        m.options.controlPort = port("controlPort")
        m.options.stateDirectory = f["stateDir"].flatMap { d.nonEmptyString($0.value, "mocks.stateDir") }.map(resolve)
        m.options.persistentCA = f["persistentCA"].flatMap { d.bool($0.value, "mocks.persistentCA") } ?? false
        if m.options.persistentCA, m.options.stateDirectory == nil, let e = f["persistentCA"] {
            d.error(e.keyMark, "mocks", "'persistentCA' needs 'stateDir' (where the CA is kept)")
        }
        if let s = f["bundleID"].flatMap({ d.nonEmptyString($0.value, "mocks.bundleID") }) { m.options.bundleID = s }
        if let s = f["projectID"].flatMap({ d.nonEmptyString($0.value, "mocks.projectID") }) { m.options.projectID = s }
        m.envFile = f["envFile"].flatMap { d.nonEmptyString($0.value, "mocks.envFile") }.map(resolve)
        m.jsonFile = f["jsonFile"].flatMap { d.nonEmptyString($0.value, "mocks.jsonFile") }.map(resolve)
        return m
    }

    /// `impersonate: true`, or a mapping of its settings (read by the impersonation feature).
    mutating func decodeImpersonate(_ node: YAMLNode) -> TargetImpersonation? {
        if node.scalarText != nil {
            guard let b = d.bool(node, "impersonate") else { return nil }
            return TargetImpersonation(enabled: b, settings: .object([]), mark: node.mark)
        }
        guard node.entries != nil else {
            d.error(node.mark, "impersonate", "expected true, false or a mapping of settings, got \(node.kindName)")
            return nil
        }
        return TargetImpersonation(enabled: true, settings: node.json, mark: node.mark)
    }

    /// `lifecycle: {start, ready: {url, timeout}, stop, restart}`.
    mutating func decodeLifecycle(_ node: YAMLNode) -> TargetLifecycle? {
        guard let f = d.mapping(node, "lifecycle", known: ["start", "ready", "stop", "restart"]) else { return nil }
        var out = TargetLifecycle(mark: node.mark)
        out.start = f["start"].flatMap { decodeCommand($0.value, "lifecycle.start") }
        out.stop = f["stop"].flatMap { decodeCommand($0.value, "lifecycle.stop") }
        out.restart = f["restart"].flatMap { decodeCommand($0.value, "lifecycle.restart") }
        if let e = f["ready"],
            let r = d.mapping(e.value, "lifecycle.ready", known: ["url", "timeout"], required: ["url"])
        {
            let url = r["url"].flatMap { d.nonEmptyString($0.value, "lifecycle.ready.url") }
            let timeout = r["timeout"].flatMap { d.duration($0.value, "lifecycle.ready.timeout") }
            if let url {
                out.ready = TargetReadiness(url: url, timeoutSeconds: Double(timeout?.milliseconds ?? 30_000) / 1000)
            }
        }
        return out
    }
}
