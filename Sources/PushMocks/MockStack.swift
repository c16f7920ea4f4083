import Foundation
import HTTP
import Signing

/// The mocks running on real sockets: APNs production and sandbox (TLS, HTTP/2), FCM and OAuth on
/// one Google port (TLS), and the control API (plain HTTP), with the CA, `.p8` key and service
/// account written to a state directory. What `ringcheck mocks` and every `ringcheck run` start.
public final class MockStack: Sendable {
    /// Where and how the mocks listen.
    public struct Options: Sendable {
        public var host: String = "127.0.0.1"
        public var apnsPort: Int = 0
        public var apnsSandboxPort: Int = 0
        public var googlePort: Int = 0
        public var controlPort: Int = 0
        /// Where the CA, key and service account are written; nil makes a new temporary directory.
        public var stateDirectory: String?
        /// Keep the CA in `stateDirectory` across runs (so a backend's trust store need not change).
        public var persistentCA: Bool = false
        /// Keep the APNs key (and its IDs) and the service account in `stateDirectory` across runs, so a
        /// backend configured once need not be given new key files.
        public var persistentKeys: Bool = false
        public var bundleID: String = MockCredentials.defaultBundleID
        public var projectID: String = "ringcheck-test"
        /// Extra DNS names the mock certificate covers besides localhost and the real provider hosts.
        public var extraCertificateNames: [String] = []
        public var clock: MockClock = .system
        /// Event-loop threads per listener (SO_REUSEPORT).
        public var loopCount: Int = 1
        /// Also serve the real host names (TLS listeners and a `CONNECT` proxy); nil for none.
        public var impersonation: ImpersonationOptions?

        public init() {}
    }

    /// The control API's own handler thread, shared by every stack in the process: however many
    /// captures a backend's tooling asks for (or abandons), the provider listeners' threads stay free.
    static let controlExecutor = HandlerExecutor(threads: 1, name: "rc-control")

    /// The real provider host names the certificate covers, so a backend that hard-codes them can be
    /// pointed here through a hosts entry or a proxy.
    public static let realProviderHosts = ImpersonatedHost.allCases.map(\.name)

    public let settings: MockSettings
    public let providers: MockProviders
    public let keys: MockKeyMaterial
    public let certificateAuthority: CertificateAuthority
    public let stateDirectory: String
    /// Where the real host names are served, when `Options.impersonation` asked for it.
    public let impersonation: ImpersonationEndpoints?
    private let servers: [HTTPServer]

    /// The capture log shared by every mock.
    public var log: CaptureLog { providers.log }
    /// Fault plans applied by every mock.
    public var faults: FaultPlans { providers.faults }

    /// Generates keys and certificates, starts the four listeners and writes the key files.
    public static func start(_ options: Options = Options()) throws -> MockStack {
        let dir = try prepareStateDirectory(options.stateDirectory)
        let ca =
            options.persistentCA
            ? try CertificateAuthority.persistent(in: dir) : try CertificateAuthority.generate()
        let ips = ["127.0.0.1", "::1"] + (isIPAddress(options.host) && options.host != "0.0.0.0" ? [options.host] : [])
        var names = ["localhost"] + realProviderHosts + options.extraCertificateNames
        if !isIPAddress(options.host), !names.contains(options.host) { names.append(options.host) }
        let leaf = try ca.issue(dnsNames: names, ipAddresses: Array(Set(ips)).sorted())
        let tls = TLSConfiguration.pem(certificateChain: leaf.chainPEM, privateKey: leaf.privateKeyPEM)

        // The service account's token_uri must name the Google port, known only once it is bound;
        // the file is written after the servers start.
        var keys =
            options.persistentKeys
            ? try MockKeyMaterial.persistent(
                in: dir, projectID: options.projectID, tokenURI: "https://placeholder/token",
                bundleID: options.bundleID)
            : try MockKeyMaterial.generate(
                projectID: options.projectID, tokenURI: "https://placeholder/token", bundleID: options.bundleID)
        let providers = MockProviders(credentials: keys.credentials, clock: options.clock)

        // APNs speaks HTTP/2 only (ALPN offers h2 alone), and allows one stream per connection until a
        // valid provider token arrives.
        var apnsTLS = tls
        apnsTLS.offersHTTP1 = false
        let apns = HTTPServer(
            configuration: .init(
                host: options.host, port: options.apnsPort, tls: apnsTLS, initialMaxConcurrentStreams: 1,
                loopCount: options.loopCount),
            handler: providers.apnsProduction)
        let sandbox = HTTPServer(
            configuration: .init(
                host: options.host, port: options.apnsSandboxPort, tls: apnsTLS, initialMaxConcurrentStreams: 1,
                loopCount: options.loopCount),
            handler: providers.apnsSandbox)
        let google = HTTPServer(
            configuration: .init(host: options.host, port: options.googlePort, tls: tls, loopCount: options.loopCount),
            handler: providers.google)
        let control = HTTPServer(
            configuration: .init(
                host: options.host, port: options.controlPort, handlerExecutor: Self.controlExecutor),
            handler: providers.control)
        var servers = [apns, sandbox, google, control]
        do {
            for server in servers { try server.start() }
        } catch {
            for server in servers { server.stop() }
            throw error
        }
        var impersonation: ImpersonationEndpoints?
        if let requested = options.impersonation {
            do {
                let started = try startImpersonation(
                    requested, tls: tls, providers: providers, loopCount: options.loopCount)
                servers += started.servers
                impersonation = started.endpoints
            } catch {
                for server in servers { server.stop() }
                throw error
            }
        }

        let urlHost = urlHostLiteral(options.host)
        let googleBase = "https://\(urlHost):\(google.port)"
        keys.serviceAccount.tokenURI = googleBase + "/token"
        let caFile = dir + "/ca.pem"
        let serviceAccountFile = dir + "/service-account.json"
        do {
            try write(ca.certificatePEM, to: caFile, mode: 0o644)
            try write(try keys.serviceAccount.json(), to: serviceAccountFile, mode: 0o600)
        } catch {
            for server in servers { server.stop() }
            throw error
        }
        let keyFile = try keys.apnsKey.writeP8(toDirectory: dir)
        let settings = MockSettings(
            apnsURL: "https://\(urlHost):\(apns.port)", apnsSandboxURL: "https://\(urlHost):\(sandbox.port)",
            fcmURL: googleBase, oauthTokenURL: googleBase + "/token", caFile: caFile, apnsKeyFile: keyFile,
            apnsKeyID: keys.apnsKey.keyID, apnsTeamID: keys.apnsKey.teamID, apnsBundleID: keys.credentials.bundleID,
            fcmServiceAccountFile: serviceAccountFile, fcmProjectID: options.projectID,
            controlURL: "http://\(urlHost):\(control.port)",
            impersonateAddresses: impersonation?.listen.map(\.description) ?? [], httpsProxy: impersonation?.proxyURL)
        return MockStack(
            settings: settings, providers: providers, keys: keys, certificateAuthority: ca, stateDirectory: dir,
            impersonation: impersonation, servers: servers)
    }

    private init(
        settings: MockSettings, providers: MockProviders, keys: MockKeyMaterial,
        certificateAuthority: CertificateAuthority,
        stateDirectory: String, impersonation: ImpersonationEndpoints?, servers: [HTTPServer]
    ) {
        self.settings = settings
        self.providers = providers
        self.keys = keys
        self.certificateAuthority = certificateAuthority
        self.stateDirectory = stateDirectory
        self.impersonation = impersonation
        self.servers = servers
    }

    /// Stops every listener; idempotent.
    public func stop() {
        for server in servers { server.stop() }
    }

    deinit { stop() }

    // MARK: - Files

    private static func prepareStateDirectory(_ requested: String?) throws -> String {
        let dir = requested ?? (NSTemporaryDirectory() + "ringcheck-mocks-" + SecureRandom.alphanumeric(8))
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw MockStackError(message: "cannot create the state directory \(dir): \(error.localizedDescription)")
        }
        let absolute = dir.hasPrefix("/") ? dir : FileManager.default.currentDirectoryPath + "/" + dir
        return (absolute as NSString).standardizingPath
    }

    static func write(_ text: String, to path: String, mode: Int) throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        else { throw MockStackError(message: "cannot write \(path)") }
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
    }

    static func urlHostLiteral(_ host: String) -> String {
        if host == "0.0.0.0" { return "127.0.0.1" }
        if host == "::" { return "[::1]" }
        return host.contains(":") ? "[\(host)]" : host
    }
}

/// The mocks could not be started: a port in use, an unwritable directory.
public struct MockStackError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
