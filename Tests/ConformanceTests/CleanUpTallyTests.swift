import Testing

@testable import Conformance

/// The run's clean-up warning: a delete answered 404 found the token gone already (a backend drops a token a
/// provider called dead), so it is cleaned — unless no delete of the run succeeded, when the route is in doubt.
@Suite struct CleanUpTallyTests {
    static let route = "DELETE /v1/tokens/{token}"

    @Test func aDeleteAnswered404AfterOthersSucceededIsCleaned() async {
        let tally = CleanUpTally()
        for _ in 0..<17 { await tally.recordDelete(failure: nil) }
        for _ in 0..<8 { await tally.recordDelete(failure: "404") }
        #expect(await CleanUpTally.warnings([tally], route: Self.route, skipReason: nil) == [])
    }

    @Test func otherFailuresAreStillWarnedAbout() async {
        let tally = CleanUpTally()
        await tally.recordDelete(failure: nil)
        await tally.recordDelete(failure: "404")
        await tally.recordDelete(failure: "500")
        #expect(
            await CleanUpTally.warnings([tally], route: Self.route, skipReason: nil) == [
                "token clean-up failed for 1 of 3 registrations: \(Self.route) answered 500 ×1; those tokens stay registered and later scenarios of the same users push to them too (check operations.deleteToken)"
            ])
    }

    /// A target whose 404 does not mean gone (`cleanUp: {notFound: failed}`): its 404s are failed deletes,
    /// however many others worked.
    @Test func a404IsAFailedDeleteWhereTheTargetSaysSo() async {
        let tally = CleanUpTally()
        for _ in 0..<17 { await tally.recordDelete(failure: nil) }
        for _ in 0..<8 { await tally.recordDelete(failure: "404") }
        let warnings = await CleanUpTally.warnings(
            [tally], route: Self.route, skipReason: nil, notFoundIsCleaned: false)
        #expect(warnings.count == 1 && warnings[0].contains("failed for 8 of 25 registrations"), "\(warnings)")
    }

    /// Only 404s: the route may not exist at all, so they are not taken for cleaned.
    @Test func only404sAreWarnedAbout() async {
        let a = CleanUpTally()
        let b = CleanUpTally()
        await a.recordDelete(failure: "404")
        await b.recordDelete(failure: "404")
        let warnings = await CleanUpTally.warnings([a, b], route: Self.route, skipReason: nil)
        #expect(warnings.count == 1 && warnings[0].contains("answered 404 ×2"), "\(warnings)")
    }
}
