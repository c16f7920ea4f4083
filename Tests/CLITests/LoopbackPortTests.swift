import PushMocks
import TestSupport
import Testing

@testable import Processes

/// Ports handed to children (`run --reference-process`, tests' target files) come from below the
/// kernel's ephemeral range, where no outgoing connection or port-0 bind can take them meanwhile.
@Suite struct LoopbackPortTests {
    @Test func theEphemeralRangeIsReadFromTheKernel() throws {
        let range = try #require(LoopbackPort.ephemeralRange())
        #expect(range.lowerBound >= 1024 && range.upperBound <= 65535)
    }

    @Test func aFreePortLiesBelowTheEphemeralRangeAndCanBeBound() throws {
        let range = try #require(LoopbackPort.ephemeralRange())
        try #require(range.lowerBound - LoopbackPort.floor >= 1000, "no room below \(range) on this machine")
        // Other tests hand ports from the same range to their children meanwhile, so one port may be
        // taken between `free()` and the check: a port taken by someone else is no defect, a range of
        // unbindable ones is.
        var bindable = 0
        for _ in 0..<20 {
            let port = try #require(LoopbackPort.free())
            #expect(port >= LoopbackPort.floor && port < range.lowerBound)
            if LoopbackPort.bindable(port) == port { bindable += 1 }
        }
        #expect(bindable >= 15, "\(bindable) of 20 free ports could be bound right after")
    }

    /// What `TriggerFixture` relies on: its mocks stop and start again on the same ports, and no other test is
    /// handed one of them in between.
    @Test func aHeldPortIsNeverHandedOutYetMocksListenThereAgainAndAgain() async throws {
        let held = try HeldLoopbackPort()
        #expect(LoopbackPort.bindable(held.port) == nil, "free() passes over a held port")
        for round in 1...2 {
            var options = MockStack.Options()
            options.apnsPort = held.port
            let mocks = try await MockStack.start(options)
            #expect(MockStackOccupiedPort.isListening(held.port), "round \(round): the mocks listen there")
            await mocks.stop()
            #expect(LoopbackPort.bindable(held.port) == nil, "round \(round): still held after the mocks stopped")
        }
    }

    @Test func theClosedPortRefusesAndIsNeverHandedOut() {
        let port = ClientTestPeer.closedPort()
        #expect(!MockStackOccupiedPort.isListening(port))
        #expect(LoopbackPort.bindable(port) == nil)
    }

    @Test func aPortWithAListenerIsNotBindable() throws {
        let held = try MockStackOccupiedPort()
        #expect(LoopbackPort.bindable(held.port) == nil)
        #expect(LoopbackPort.bindable(0) != held.port)
    }
}
