import Foundation
import HTTP
import Processes
import Signing

/// The mocks running on real sockets: every provider of `MockProviders.registered` on the listener it
/// asks for (APNs production and sandbox: TLS, HTTP/2; FCM and OAuth on one Google port: TLS), and the
/// control API (plain HTTP), with the CA and the providers' key files (`.p8` key, service account)
/// written to a state directory. What `ringcheck mocks` and every `ringcheck run` start.
public final class MockStack: Sendable {
    /// Where and how the mocks listen.
    public struct Options: Sendable {
        public var host: String = "127.0.0.1"
        /// The port of each listener by name (`MockListener.name`, and `control`); 0 or absent: any free port.
        public var ports: [String: Int] = [:]
        public var apnsPort: Int {
            get { ports["apns", default: 0] }
            set { ports["apns"] = newValue }
        }
        public var apnsSandboxPort: Int {
            get { ports["apnsSandbox", default: 0] }
            set { ports["apnsSandbox"] = newValue }
        }
        public var googlePort: Int {
            get { ports["google", default: 0] }
            set { ports["google"] = newValue }
        }
        public var controlPort: Int {
            get { ports[MockStack.controlListener, default: 0] }
            set { ports[MockStack.controlListener] = newValue }
        }
        /// Where the CA, key and service account are written; nil makes a new temporary directory,
        /// removed by `stop()`.
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
        /// The providers served: `MockProviders.registered`, unless a test adds its own.
        public var providers: [any MockProvider.Type] = MockProviders.registered
        /// Event-loop threads per listener (SO_REUSEPORT).
        public var loopCount: Int = 1
        /// Also serve the real host names (TLS listeners and a `CONNECT` proxy); nil for none.
        public var impersonation: ImpersonationOptions?
        /// The RSA key of the service account the mocks trust; nil makes a fresh one (not with
        /// `persistentKeys`, which keep their own). A test process shares one across the many stacks it
        /// starts: each fresh key costs a quarter to half a second of CPU.
        public var serviceAccountKey: PrivateKey?
        /// The connection places the listeners share; nil: the process's (`ConnectionPool.process`). Tests
        /// give a small one to fill it.
        public var connectionPool: ConnectionPool?

        public init() {}
    }

    /// The control API's own handler thread, shared by every stack in the process: however many
    /// captures a backend's tooling asks for (or abandons), the provider listeners' threads stay free.
    static let controlExecutor = HandlerExecutor(threads: 1, name: "rc-control")

    /// Places of the connection pool only the control API's listener takes: a flood on the providers'
    /// listeners, which together may fill the rest, leaves the harness's health checks and capture reads
    /// room (`HTTPServer.Configuration.reservedConnections`: all listeners together reserve at most an eighth
    /// of the pool, so in a process running many stacks the later ones may get fewer).
    public static let controlReservedConnections = 256

    /// The name of the control API's listener in `Options.ports`.
    public static let controlListener = "control"

    /// The real provider host names the certificate covers, so a backend that hard-codes them can be
    /// pointed here through a hosts entry or a proxy.
    public static let realProviderHosts = ImpersonatedHost.allCases.map(\.name)

    public let settings: MockSettings
    public let providers: MockProviders
    public let keys: MockKeyMaterial
    public let certificateAuthority: CertificateAuthority
    public let stateDirectory: String
    /// The stack made `stateDirectory` (a temporary one, no `Options.stateDirectory` given): `stop()`
    /// removes it with the `.p8` key and the service account in it.
    private let ownsStateDirectory: Bool
    /// Where the real host names are served, when `Options.impersonation` asked for it.
    public let impersonation: ImpersonationEndpoints?
    private let servers: [HTTPServer]

    /// The capture log shared by every mock.
    public var log: CaptureLog { providers.log }
    /// Fault plans applied by every mock.
    public var faults: FaultPlans { providers.faults }

    /// Generates keys and certificates, starts every registered provider's listener and the control API's,
    /// and has the providers write their key files.
    public static func start(_ options: Options = Options()) throws -> MockStack {
        let dir = try prepareStateDirectory(options.stateDirectory)
        do { return try start(options, stateDirectory: dir) } catch {
            if options.stateDirectory == nil { try? FileManager.default.removeItem(atPath: dir) }
            throw error
        }
    }

    /// Starts the mocks as `start(_:)` does, for async code: on a thread of its own, not the cooperative pool.
    ///
    /// The service account's RSA key alone takes a quarter to half a second of CPU in one C call (over a
    /// second of wall time beside other tests): every in-process stack of a test run held a pool thread
    /// that long while it started, both threads of a 2-core machine when two stacks started at once.
    public static func start(_ options: Options = Options()) async throws -> MockStack {
        try await onThreadOfItsOwn { try start(options) }
    }

    private static func start(_ options: Options, stateDirectory dir: String) throws -> MockStack {
        let ca =
            options.persistentCA
            ? try CertificateAuthority.persistent(in: dir) : try CertificateAuthority.generate()
        let tls = try serverTLS(signedBy: ca, options)
        let keys = try keyMaterial(options, in: dir)
        let providers = MockProviders(
            credentials: keys.credentials, clock: options.clock, registered: options.providers,
            persistentDirectory: options.persistentKeys ? dir : nil)

        // One listener per provider listener name (providers naming the same one share it), then the
        // control API's plain one.
        let listeners = providers.listeners
        var servers = listenerServers(listeners, providers: providers, tls: tls, options)
        let control = controlServer(providers, options)
        servers.append(control)
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
                    requested, tls: tls, providers: providers, loopCount: options.loopCount,
                    pool: options.connectionPool)
                servers += started.servers
                impersonation = started.endpoints
            } catch {
                for server in servers { server.stop() }
                throw error
            }
        }
        let written: (settings: MockSettings, keys: MockKeyMaterial)
        do {
            written = try writeSettings(
                options, directory: dir, ca: ca, keys: keys, listeners: listeners, servers: servers,
                control: control, impersonation: impersonation)
        } catch {
            for server in servers { server.stop() }
            throw error
        }
        return MockStack(
            settings: written.settings, providers: providers, keys: written.keys, certificateAuthority: ca,
            stateDirectory: dir, ownsStateDirectory: options.stateDirectory == nil, impersonation: impersonation,
            servers: servers)
    }

    private init(
        settings: MockSettings, providers: MockProviders, keys: MockKeyMaterial,
        certificateAuthority: CertificateAuthority,
        stateDirectory: String, ownsStateDirectory: Bool, impersonation: ImpersonationEndpoints?,
        servers: [HTTPServer]
    ) {
        self.settings = settings
        self.providers = providers
        self.keys = keys
        self.certificateAuthority = certificateAuthority
        self.stateDirectory = stateDirectory
        self.ownsStateDirectory = ownsStateDirectory
        self.impersonation = impersonation
        self.servers = servers
    }

    /// Stops every listener and removes the temporary state directory it made; idempotent.
    public func stop() {
        for server in servers { server.stop() }
        if ownsStateDirectory { try? FileManager.default.removeItem(atPath: stateDirectory) }
    }

    /// Stops every listener as `stop()` does, for async code: each listener's stop (its in-flight requests'
    /// grace period and its loop threads' end) is waited for without holding a thread of the cooperative pool.
    public func stop() async {
        await onThreadOfItsOwn { self.stop() }
    }

    deinit { stop() }

    // MARK: - Files

    /// The name every temporary state directory starts with (in `$TMPDIR`).
    public static let temporaryDirectoryFamily = "ringcheck-mocks-"

    /// The requested directory, or a new temporary one named after this process (`OwnedTemporaryDirectory`):
    /// making one also removes those a killed ringcheck left behind, with their keys.
    private static func prepareStateDirectory(_ requested: String?) throws -> String {
        let dir = requested ?? (NSTemporaryDirectory() + temporaryDirectoryFamily + SecureRandom.alphanumeric(8))
        do {
            if requested == nil {
                _ = try OwnedTemporaryDirectory.create(named: (dir as NSString).lastPathComponent)
            } else {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            }
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
