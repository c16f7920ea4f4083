import Foundation
import ReferenceBackend
import Reports
import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// The token clean-up after each scenario through a `profile: dialstack` target file, on the wake-up reference:
/// deleteToken by a value registerToken's answer saved empties the backend; a file that maps registerToken but
/// not deleteToken deletes nothing and says so; deletes that fail are counted and said once for the run.
@Suite struct DialStackTokenCleanUpTests {
    /// The wake-up reference's own token route, written out in the file (so it counts as the file's mapping).
    static let register = """
          registerToken:
            method: PUT
            path: "/v1/installations/{installationId}/push-tokens/{kind}"
            body: {token: "{token}", appId: "{appId}", apnsEnvironment: "{apnsEnvironment}"}
        """

    /// A target file of the wake-up reference's users a, b and c with `operations`.
    static func file(_ stack: DialStackTestStack, operations: String) throws -> TargetFile {
        try TargetFile.load(
            text: """
                \(stack.targetFileHeader)
                users:
                  a: {userId: d0-a, auth: {bearer: token-d0-a}}
                  b: {userId: d0-b, auth: {bearer: token-d0-b}}
                  c: {userId: d0-c, auth: {bearer: token-d0-c}}
                operations:
                \(operations)
                """, file: "t.yaml")
    }

    /// Runs `wake.every-device` (b's four devices, one registered by a step) through a file with `operations`; the run's clean-up warnings
    /// and the tokens the backend still holds for b afterwards.
    func run(_ operations: String) async throws -> (warnings: [String], left: Int, passed: Bool) {
        let stack = try await DialStackTestStack.start(runs: 1)
        defer { Task { await stack.stop() } }
        let file = try Self.file(stack, operations: operations)
        let engine = try ScenarioEngine(
            target: file.target(defaultAppId: stack.mocks.providers.credentials.bundleID), mocks: stack.mocks,
            catalogue: stack.suite.catalogue, profile: stack.suite.profile)
        let results = await SuiteRunner(engine: engine, concurrency: 1, repeatCount: 1).run(
            stack.suite.scenarios.filter { $0.id == "wake.every-device" })
        engine.shutdown()
        let warnings = await ScenarioEngine.cleanUpWarnings([engine])
        let passed = results.allSatisfy { $0.attempts.last?.status == .pass }
        return (warnings, stack.server.api.tokens.devices(ofUser: "d0-b").count, passed)
    }

    /// The skip is for a profile with a token API of its own (`Profile.ownsReferenceTokenRoutes` false): for Callx,
    /// whose own API the reference token routes are, the same file's clean-up still deletes through that route.
    @Test func onlyAProfileWithItsOwnTokenAPISkipsTheDeletes() async throws {
        let stack = try await DialStackTestStack.start(runs: 1)
        defer { Task { await stack.stop() } }
        let file = try Self.file(stack, operations: Self.register)
        let target = file.target(defaultAppId: stack.mocks.providers.credentials.bundleID)
        let dialstack = try ScenarioEngine(
            target: target, mocks: stack.mocks, catalogue: stack.suite.catalogue, profile: stack.suite.profile)
        let callx = try ScenarioEngine(
            target: target, mocks: stack.mocks, catalogue: stack.suite.catalogue, profile: CallxProfile())
        defer {
            dialstack.shutdown()
            callx.shutdown()
        }
        #expect(dialstack.tokenCleanUpSkipReason?.contains("maps operations.registerToken") == true)
        #expect(callx.tokenCleanUpSkipReason == nil)
    }

    @Test func deleteTokenByAValueTheRegistrationsAnswerSavedEmptiesTheBackend() async throws {
        let r = try await run(
            Self.register + """

                    response: {save: {registered: installationId}}
                  deleteToken:
                    method: DELETE
                    path: "/v1/installations/{registered}/push-tokens/{kind}"
                    installation: {in: none}
                """)
        #expect(r.passed)
        #expect(r.warnings == [])
        #expect(r.left == 0)
    }

    @Test func withoutDeleteTokenNothingIsDeletedAndTheRunSaysSo() async throws {
        let r = try await run(Self.register)
        #expect(r.passed)
        #expect(r.left == 4, "the reference design's delete route is not guessed")
        #expect(
            r.warnings == [
                "token clean-up skipped: the target file maps operations.registerToken (PUT /v1/installations/{installationId}/push-tokens/{kind}) but not operations.deleteToken, so the tokens of 4 devices stay registered after their scenarios and later scenarios of the same users push to them too"
            ])
    }

    @Test func deletesThatFailAreCountedForOneWarning() async throws {
        let r = try await run(
            Self.register + "\n  deleteToken: {method: DELETE, path: \"/v1/devices/{token}\", installation: {in: none}}"
        )
        #expect(r.passed)
        #expect(r.left == 4)
        #expect(
            r.warnings == [
                "token clean-up failed for 4 of 4 registrations: DELETE /v1/devices/{token} answered 404 ×4; those tokens stay registered and later scenarios of the same users push to them too (check operations.deleteToken)"
            ])
    }
}
