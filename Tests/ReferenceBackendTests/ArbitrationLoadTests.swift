import Foundation
import HTTP
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// Answer arbitration under load over HTTP: 50 calls, 8 installations of the callee answering
/// each at once (`HTTPClient.race`, one connection per request).
@Suite(.serialized) struct ArbitrationLoadTests {
    static let installations = (1...8).map { "b-device-\($0)" }

    /// Starts a backend (no pushes: nobody registers a token) and binds the callee's installations.
    func start(_ defects: Set<CallxDefect>) async throws -> (ReferenceBackendServer, ReferenceAPIClient) {
        let server = try ReferenceBackendServer(
            options: .init(configuration: ReferenceBackendConfiguration(defects: defects)), transport: NoPushes(),
            messageSettings: PushMessageSettings(fcmProjectID: "unused"))
        try server.start()
        let api = try ReferenceAPIClient(baseURL: server.baseURL)
        for installation in Self.installations {
            #expect(try await api.events("user-b", installation: installation).status == 200)
        }
        return (server, api)
    }

    /// Races 8 answers for each of `calls` new calls; returns the number of 200s per call.
    func raceAnswers(_ api: ReferenceAPIClient, calls: Int, stopWhenAnyCallHasWinners limit: Int? = nil) async throws
        -> [Int]
    {
        var winners: [Int] = []
        for _ in 0..<calls {
            let callId = UUID().uuidString.lowercased()
            #expect(try await api.create(callId).status == 200)
            let race = try await api.client.race(Self.installations.map { api.answerRequest(callId, installation: $0) })
            let statuses = race.entries.map { (try? $0.result.get())?.status ?? -1 }
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 409 }, "statuses \(statuses)")
            winners.append(statuses.filter { $0 == 200 }.count)
            if let limit, winners.last! >= limit { break }
        }
        return winners
    }

    @Test func exactlyOneWinnerPerCall() async throws {
        let (server, api) = try await start([])
        let winners = try await raceAnswers(api, calls: 50)
        #expect(winners.count == 50)
        #expect(winners.allSatisfy { $0 == 1 }, "winners per call: \(winners)")
        await server.stop()
    }

    @Test func racyAnswerLetsMoreThanOneWin() async throws {
        let (server, api) = try await start([.racyAnswer])
        let winners = try await raceAnswers(api, calls: 50, stopWhenAnyCallHasWinners: 2)
        #expect(winners.contains { $0 > 1 }, "winners per call: \(winners)")
        await server.stop()
    }
}

/// A transport for tests that must never push.
struct NoPushes: PushTransport {
    func send(_ request: PushRequest) async throws -> HTTPResponse {
        Issue.record("unexpected push \(request.path)")
        return HTTPResponse(status: 500)
    }
}
