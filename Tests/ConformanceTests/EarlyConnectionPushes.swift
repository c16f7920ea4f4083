import HTTP
import PushMocks
import TestSupport
import Testing

extension MockFixture {
    /// Has the production APNs mock record three pushes to `token`, each read now, and returns them: the request a
    /// client opened a connection for (accepted at `opened`), a later request on that connection, and the request
    /// that opened a connection accepted only now. A test of "on its way before X" takes X between `opened` and
    /// now: the first was on its way before X (`Capture.onItsWayOrder`), the other two were not.
    ///
    /// ```swift
    /// let opened = ArrivalOrder.next()
    /// let restart = ArrivalOrder.next()
    /// let pushes = try await f.pushesAroundAnEarlyConnection(token: token, openedAt: opened)
    /// ```
    func pushesAroundAnEarlyConnection(token: String, openedAt opened: UInt64) async throws
        -> (early: Capture, later: Capture, late: Capture)
    {
        _ = mocks.log.clear()
        let apns = mocks.apns(.production)
        _ = await apns.handle(apnsRequest(token: token, connection: 2, openedAt: opened, first: true))
        _ = await apns.handle(apnsRequest(token: token, connection: 2, openedAt: opened, first: false))
        let late = ArrivalOrder.next()
        _ = await apns.handle(apnsRequest(token: token, connection: 3, openedAt: late, first: true))
        let log = mocks.log.captures()
        try #require(log.count == 3)
        return (log[0], log[1], log[2])
    }
}
