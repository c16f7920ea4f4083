import Foundation
import HTTP
import Signing

/// The parts of starting a `MockStack`, in the order `start(_:stateDirectory:)` takes them: the servers'
/// certificate, the key material, the servers, then the settings a backend reads.
extension MockStack {
    /// The servers' certificate chain, signed by `ca`, for every name a backend may dial the mocks by.
    static func serverTLS(signedBy ca: CertificateAuthority, _ options: Options) throws -> TLSConfiguration {
        let ips = ["127.0.0.1", "::1"] + (isIPAddress(options.host) && options.host != "0.0.0.0" ? [options.host] : [])
        var names = ["localhost"] + realProviderHosts + options.extraCertificateNames
        if !isIPAddress(options.host), !names.contains(options.host) { names.append(options.host) }
        let leaf = try ca.issue(dnsNames: names, ipAddresses: Array(Set(ips)).sorted())
        return TLSConfiguration.pem(certificateChain: leaf.chainPEM, privateKey: leaf.privateKeyPEM)
    }

    /// The signing keys and service account, kept in `dir` when `persistentKeys` asks for it.
    static func keyMaterial(_ options: Options, in dir: String) throws -> MockKeyMaterial {
        // The service account's token_uri must name the Google port, known only once it is bound;
        // the providers write their files after the servers start.
        options.persistentKeys
            ? try MockKeyMaterial.persistent(
                in: dir, projectID: options.projectID, tokenURI: "https://placeholder/token",
                bundleID: options.bundleID)
            : try MockKeyMaterial.generate(
                projectID: options.projectID, tokenURI: "https://placeholder/token", bundleID: options.bundleID,
                serviceAccountKey: options.serviceAccountKey)
    }

    /// One server per provider listener, not started yet.
    static func listenerServers(
        _ listeners: [(listener: MockListener, providers: [any MockProvider])], providers: MockProviders,
        tls: TLSConfiguration, _ options: Options
    ) -> [HTTPServer] {
        listeners.map { entry in
            var listenerTLS = tls
            listenerTLS.offersHTTP1 = entry.listener.offersHTTP1
            return HTTPServer(
                configuration: .init(
                    host: options.host, port: options.ports[entry.listener.name, default: 0],
                    tls: entry.listener.tls ? listenerTLS : nil,
                    initialMaxConcurrentStreams: entry.listener.initialMaxConcurrentStreams,
                    loopCount: options.loopCount, connectionPool: options.connectionPool),
                handler: providers.handler(forListener: entry.listener.name)!)
        }
    }

    /// The control API's plain server, not started yet.
    static func controlServer(_ providers: MockProviders, _ options: Options) -> HTTPServer {
        HTTPServer(
            configuration: .init(
                host: options.host, port: options.controlPort, handlerExecutor: Self.controlExecutor,
                reservedConnections: Self.controlReservedConnections, connectionPool: options.connectionPool),
            handler: providers.control)
    }

    /// Writes the CA file and each provider's files once the servers are bound (`servers` start with one per
    /// listener, in `listeners`' order), and reads the settings back; a provider may complete the keys.
    static func writeSettings(
        _ options: Options, directory dir: String, ca: CertificateAuthority, keys: MockKeyMaterial,
        listeners: [(listener: MockListener, providers: [any MockProvider])], servers: [HTTPServer],
        control: HTTPServer, impersonation: ImpersonationEndpoints?
    ) throws -> (settings: MockSettings, keys: MockKeyMaterial) {
        let urlHost = urlHostLiteral(options.host)
        let caFile = dir + "/ca.pem"
        var values = ["RINGCHECK_CA_FILE": caFile, "RINGCHECK_CONTROL_URL": "http://\(urlHost):\(control.port)"]
        var context = MockSettingsContext(baseURL: "", directory: dir, keys: keys, projectID: options.projectID)
        try write(ca.certificatePEM, to: caFile, mode: 0o644)
        for (i, entry) in listeners.enumerated() {
            context.baseURL = "\(entry.listener.tls ? "https" : "http")://\(urlHost):\(servers[i].port)"
            for provider in entry.providers {
                for (name, value) in try provider.settings(&context) { values[name] = value }
            }
        }
        var read = try MockSettings(environment: values, providers: options.providers)
        read.impersonateAddresses = impersonation?.listen.map(\.description) ?? []
        read.httpsProxy = impersonation?.proxyURL
        return (read, context.keys)
    }
}
