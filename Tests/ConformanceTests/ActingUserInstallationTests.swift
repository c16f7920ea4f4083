import AllProfiles
import Callx
import Conformance
import HTTP
import ReferenceBackend
import Synchronization
import Testing

/// Every actor has an installation: a user's own `end` and `mediaSession` (`as: a`, `as: c`), which the
/// reference design sends without one, carry the user's app installation where the target places
/// installations otherwise (here in `X-Device-Id`), and that installation is registered before the
/// first step, so a backend that wants one on every request, and refuses one it never saw, accepts them.
@Suite(.serialized) struct ActingUserInstallationTests {
    /// What reached the backend: method, path, bearer token and `X-Device-Id` of each request.
    final class Seen: Sendable {
        let requests = Mutex<[(method: String, path: String, auth: String, device: String?)]>([])

        func devices(_ method: String, _ suffix: String, by auth: String) -> [String?] {
            requests.withLock { $0.filter { $0.method == method && $0.path.hasSuffix(suffix) && $0.auth == auth } }
                .map(\.device)
        }
    }

    /// The alternate shape behind a front that answers 400 to any request without `X-Device-Id`, as the
    /// backend in issue 27 did ("Send x-installation-id").
    static func strict(_ seen: Seen) -> (CallService) -> any HTTPHandler {
        { service in
            let alternate = AlternateAPI(service: service)
            return ClosureHandler { request in
                let device = request.headers["x-device-id"]
                seen.requests.withLock {
                    $0.append((request.method, request.path, request.headers["authorization"] ?? "", device))
                }
                guard device != nil else {
                    return .json(400, Array(#"{"error":{"code":"bad_request","message":"Send X-Device-Id"}}"#.utf8))
                }
                return await alternate.handle(request)
            }
        }
    }

    /// Runs `ids` once through the alternate shape behind `front` and expects each to pass.
    static func expectPassing(
        _ file: TargetFile, _ ids: [String], front: @escaping (CallService) -> any HTTPHandler
    ) async throws {
        let results = try await TargetFileStack.run(file, shape: .alternate, slots: 1, only: ids, front: front)
        #expect(results.count == ids.count)
        for (scenario, attempts) in results {
            let o = try #require(attempts.first)
            #expect(o.status == .pass, "\(scenario.id): \(o.status) \(TargetFileStack.findings(o))")
        }
    }

    @Test func aUsersEndAndMediaSessionCarryItsRegisteredInstallation() async throws {
        let file = try TargetFile.load(path: TargetFileBackendTests.examples + "/reference-alternate.yaml")
        let seen = Seen()
        try await Self.expectPassing(
            file, ["basic.cancel-before-answer", "media.winner-and-caller-only"], front: Self.strict(seen))
        let a = "Bearer tok-tf0-a"
        let c = "Bearer tok-tf0-c"
        let registeredByA = Set(seen.devices("PUT", "/api/push-registrations", by: a).compactMap { $0 })
        let registeredByC = Set(seen.devices("PUT", "/api/push-registrations", by: c).compactMap { $0 })
        // a's end (a cancels) and a's and c's media requests name the installation each registered first.
        let ends = seen.devices("POST", "/hangup", by: a)
        #expect(!ends.isEmpty)
        #expect(ends.allSatisfy { $0.map(registeredByA.contains) == true }, "\(ends) vs \(registeredByA)")
        let media = seen.devices("POST", "/media-token", by: a) + seen.devices("POST", "/media-token", by: c)
        #expect(media.count == 2)
        #expect(
            media.allSatisfy { $0.map { registeredByA.contains($0) || registeredByC.contains($0) } == true },
            "\(media) vs \(registeredByA) \(registeredByC)")
    }

    /// A front that takes `end`'s installation in the path (`/calls/{callId}/devices/{installationId}/hangup`)
    /// and hands the alternate shape its `/hangup` with that installation in `X-Device-Id`.
    static func pathEnd(_ seen: Seen) -> (CallService) -> any HTTPHandler {
        { service in
            let strict = Self.strict(seen)(service)
            return ClosureHandler { request in
                var request = request
                let parts = request.target.split(separator: "/", omittingEmptySubsequences: false)
                if let devices = parts.firstIndex(of: "devices"), devices + 2 < parts.count,
                    parts[devices + 2].hasPrefix("hangup")
                {
                    // An empty segment (no installation in the path) reaches the backend as no header at all.
                    if !parts[devices + 1].isEmpty { request.headers.set("x-device-id", String(parts[devices + 1])) }
                    request.target = (parts[..<devices] + parts[(devices + 2)...]).joined(separator: "/")
                }
                return await strict.handle(request)
            }
        }
    }

    @Test func anEndPlacingTheInstallationInThePathCarriesTheUsersOwn() async throws {
        let text = try String(
            contentsOfFile: TargetFileBackendTests.examples + "/reference-alternate.yaml", encoding: .utf8)
        let alternateEnd = "  end:\n    path: /api/v2/calls/{callId}/hangup\n"
        #expect(text.contains(alternateEnd))
        let file = try TargetFile.load(
            text: text.replacingOccurrences(
                of: alternateEnd,
                with:
                    "  end:\n    path: /api/v2/calls/{callId}/devices/{installationId}/hangup\n    installation: {in: path}\n"
            ),
            file: "path-end.yaml")
        #expect(file.mapping[.end].installation == .path)
        let seen = Seen()
        try await Self.expectPassing(
            file, ["basic.cancel-before-answer", "basic.answer-and-hang-up"], front: Self.pathEnd(seen))
        // a's ends (a cancels, a hangs up) name, in the path, the installation a registered first.
        let a = "Bearer tok-tf0-a"
        let registeredByA = Set(seen.devices("PUT", "/api/push-registrations", by: a).compactMap { $0 })
        let ends = seen.devices("POST", "/hangup", by: a)
        #expect(ends.count == 2)
        #expect(ends.allSatisfy { $0.map(registeredByA.contains) == true }, "\(ends) vs \(registeredByA)")
    }

    @Test func onlyATargetPlacingInstallationsOtherwiseMakesAUsersRequestsCarryOne() throws {
        let alternate = try TargetFile.load(path: TargetFileBackendTests.examples + "/reference-alternate.yaml")
        for operation in [TargetOperation.create, .end, .get, .mediaSession] {
            #expect(alternate.mapping.carriesActorInstallation(operation), "\(operation)")
            // The reference design: a user's requests name no installation, and nothing is registered for them.
            #expect(!TargetMapping().carriesActorInstallation(operation), "\(operation)")
        }
        // An answer and a feed read always name their installation themselves.
        #expect(!TargetMapping().carriesActorInstallation(.answer))
    }
}
