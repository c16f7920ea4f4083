import JSON
import PushMocks

extension TargetFileDecoder {
    static let mocksKeys = [
        "host", "apnsPort", "apnsSandboxPort", "googlePort", "controlPort", "stateDir", "persistentCA",
        "persistentKeys", "bundleID",
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
        m.options.persistentKeys = f["persistentKeys"].flatMap { d.bool($0.value, "mocks.persistentKeys") } ?? false
        if m.options.persistentKeys, m.options.stateDirectory == nil, let e = f["persistentKeys"] {
            d.error(e.keyMark, "mocks", "'persistentKeys' needs 'stateDir' (where the keys are kept)")
        }
        if let s = f["bundleID"].flatMap({ d.nonEmptyString($0.value, "mocks.bundleID") }) { m.options.bundleID = s }
        if let s = f["projectID"].flatMap({ d.nonEmptyString($0.value, "mocks.projectID") }) { m.options.projectID = s }
        m.envFile = f["envFile"].flatMap { d.nonEmptyString($0.value, "mocks.envFile") }.map(resolve)
        m.jsonFile = f["jsonFile"].flatMap { d.nonEmptyString($0.value, "mocks.jsonFile") }.map(resolve)
        return m
    }

    /// `impersonate: true` (a TLS listener on 127.0.0.1:443 and a proxy on a free port), or
    /// `{listen: [ADDR:PORT, …], proxy: ADDR:PORT | none}`: the real push host names served by the mocks.
    mutating func decodeImpersonate(_ node: YAMLNode) -> ImpersonationOptions? {
        if node.scalarText != nil {
            guard let on = d.bool(node, "impersonate") else { return nil }
            return on ? ImpersonationOptions() : nil
        }
        guard let f = d.mapping(node, "impersonate", known: ["listen", "proxy"]) else { return nil }
        var out = ImpersonationOptions()
        func address(_ item: YAMLNode, _ path: String) -> ListenAddress? {
            guard let text = d.string(item, path) else { return nil }
            guard let a = ListenAddress(parsing: text) else {
                d.error(item.mark, path, "'\(text)' is not ADDR:PORT with an IP address (127.0.0.1:443, [::1]:8443)")
                return nil
            }
            return a
        }
        if let e = f["listen"], let list = d.stringList(e.value, "impersonate.listen") {
            let items = e.value.items ?? [e.value]
            out.listen = zip(list, items).enumerated().compactMap { i, pair in
                pair.0 == "none" ? nil : address(pair.1, "impersonate.listen[\(i)]")
            }
        }
        if let e = f["proxy"] {
            out.proxy = e.value.scalarText == "none" ? nil : address(e.value, "impersonate.proxy")
        }
        if out.listen.isEmpty && out.proxy == nil {
            d.error(node.mark, "impersonate", "no listener and no proxy leave nothing to impersonate with")
        }
        return out
    }

    /// `lifecycle: {start, ready: {url, timeout}, stop, restart, environment, instances}`.
    mutating func decodeLifecycle(_ node: YAMLNode, impersonation: ImpersonationOptions?) -> TargetLifecycle? {
        let keys = ["start", "ready", "stop", "restart", "environment", "instances"]
        guard let f = d.mapping(node, "lifecycle", known: keys) else { return nil }
        var out = TargetLifecycle()
        out.start = f["start"].flatMap { decodeCommand($0.value, "lifecycle.start") }
        out.stop = f["stop"].flatMap { decodeCommand($0.value, "lifecycle.stop") }
        out.restart = f["restart"].flatMap { decodeCommand($0.value, "lifecycle.restart") }
        out.environment =
            f["environment"].flatMap { lifecycleEnvironment($0.value, impersonation: impersonation) } ?? [:]
        if let e = f["ready"],
            let r = d.mapping(e.value, "lifecycle.ready", known: ["url", "timeout"], required: ["url"])
        {
            let url = r["url"].flatMap { d.nonEmptyString($0.value, "lifecycle.ready.url") }
            if let url, let mark = r["url"]?.value.mark, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                d.error(mark, "lifecycle.ready.url", "'\(url)' is not an http:// or https:// URL")
            }
            let timeout = r["timeout"].flatMap { d.duration($0.value, "lifecycle.ready.timeout") }
            if let url { out.ready = BackendReadiness(url: url, timeout: timeout?.duration ?? .seconds(30)) }
        }
        if let e = f["instances"], let n = d.int(e.value, "lifecycle.instances", min: 1) {
            if n > 2 {
                d.error(e.value.mark, "lifecycle.instances", "\(n) is more than 2 (1, or 2 for a second instance)")
            }
            out.instances = min(n, 2)
        }
        return out
    }
}
