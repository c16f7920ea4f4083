// swift-tools-version:6.0
import PackageDescription

/// The profile modules (Sources/<Name>/), each over the engine (`Conformance`).
let profileModules: [Target.Dependency] = ["Callx", "DialStack", "PushService", "OneSignal"]
/// What a profile module imports: the engine and the modules below it.
let profileDependencies: [Target.Dependency] = [
    "Conformance", "HTTP", "PushMocks", "JSON", "Reports", "Signing", "InputLimits", "ReferenceBackend",
]

let package = Package(
    name: "ringcheck",
    // Linux only (no `platforms:`): the event loop uses epoll and eventfd through Sources/CLinux, and
    // the reference process's port check reads /proc. macOS would need a kqueue loop there.
    products: [
        .executable(name: "ringcheck", targets: ["ringcheck"])
    ],
    targets: [
        // MARK: C libraries from Debian, one system-library target each
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNghttp2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .target(name: "CLinux"),

        // MARK: ringcheck modules
        // One checked number conversion and one bounded file read for everything read from outside.
        .target(name: "InputLimits"),
        .target(name: "JSON", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "Processes", dependencies: ["CLinux"]),
        .target(name: "HTTP", dependencies: ["InputLimits", "COpenSSL", "CNghttp2", "CCurl", "CLinux"]),
        .target(name: "Signing", dependencies: ["COpenSSL", "JSON", "InputLimits"]),
        // The control API's OpenAPI document, served by the binary (docs/control-api.openapi.json links to it).
        .target(
            name: "PushMocks", dependencies: ["HTTP", "Signing", "JSON", "InputLimits", "Processes"],
            resources: [.embedInCode("Resources/control-api.openapi.json")]),
        // Wired to the mocks by `MockSettings.providerSettings(bundleID:)` when embedded.
        .target(
            name: "ReferenceBackend", dependencies: ["HTTP", "Signing", "JSON", "CSQLite", "InputLimits", "PushMocks"]),
        .target(
            name: "Conformance",
            dependencies: ["HTTP", "PushMocks", "CYAML", "JSON", "Processes", "Signing", "Reports", "InputLimits"]),
        .target(name: "Reports", dependencies: ["InputLimits"]),
        // One module per profile over the engine (docs/ARCHITECTURE.md, "Modules and their arrows"): a profile
        // imports the engine and never another profile; the engine imports none of them. Each embeds its own
        // suite (its `Suite/` folder, a link to `suites/<profile>/`) through the EmbedSuites plugin.
        .target(name: "Callx", dependencies: profileDependencies, plugins: ["EmbedSuites"]),
        .target(name: "DialStack", dependencies: profileDependencies, plugins: ["EmbedSuites"]),
        .target(name: "PushService", dependencies: profileDependencies, plugins: ["EmbedSuites"]),
        .target(name: "OneSignal", dependencies: profileDependencies, plugins: ["EmbedSuites"]),
        // The registration list (`Profiles.all`) and the engine's loaders with it filled in: what the CLI and the
        // tests import to reach every profile.
        .target(name: "AllProfiles", dependencies: ["Conformance", "PushMocks"] + profileModules),
        // The CLI's commands as a library (`Ringcheck.dispatch(_:profiles:)`), so a test executable can run them
        // over a registry of its own; the `ringcheck` executable is its one-line `main.swift`.
        .target(
            name: "RingcheckCLI",
            dependencies: [
                "HTTP", "Signing", "PushMocks", "ReferenceBackend", "Conformance", "Reports", "JSON", "Processes",
                "InputLimits", "AllProfiles",
            ] + profileModules,
            plugins: ["BuildInfo"]),
        .executableTarget(name: "ringcheck", dependencies: ["RingcheckCLI"]),

        // MARK: each profile's suite compiled into its module (so an installed binary needs no suites/ beside it)
        .executableTarget(name: "EmbedSuitesTool"),
        .plugin(name: "EmbedSuites", capability: .buildTool(), dependencies: ["EmbedSuitesTool"]),
        // MARK: the commit `ringcheck --version` names (scripts/build-info.sh, before every build)
        .plugin(name: "BuildInfo", capability: .buildTool()),

        // MARK: tests
        .target(
            name: "TestSupport",
            dependencies: ["HTTP", "Signing", "PushMocks", "ReferenceBackend", "JSON", "Processes"],
            path: "Tests/TestSupport"),
        // The probe profile (issue 26's proof): a fifth profile outside the shipped binary, registered by the tests.
        .target(
            name: "Probe", dependencies: profileDependencies, path: "Tests/Probe",
            plugins: ["EmbedSuites"]),
        // `ringcheck` with the probe registered, for the test that serves the probe's reference out of process.
        .executableTarget(
            name: "ProbeRingcheck", dependencies: ["RingcheckCLI", "AllProfiles", "Conformance", "Probe"],
            path: "Tests/ProbeRingcheck"),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "TestSupport", "PushMocks", "JSON", "ReferenceBackend", "Processes", "HTTP", "Conformance", "Reports",
                "ringcheck", "RingcheckCLI", "ProbeRingcheck", "InputLimits", "AllProfiles", "Probe",
            ] + profileModules),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "Conformance", "JSON", "TestSupport", "PushMocks", "ReferenceBackend", "HTTP", "Signing", "Reports",
                "Processes", "AllProfiles",
            ] + profileModules),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "TestSupport"]),
        .testTarget(
            name: "ReferenceBackendTests",
            dependencies: ["ReferenceBackend", "HTTP", "Signing", "PushMocks", "JSON", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Signing", "TestSupport", "CLinux"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "TestSupport"]),
        .testTarget(name: "PushMocksTests", dependencies: ["PushMocks", "HTTP", "Signing", "JSON", "TestSupport"]),
    ]
)
