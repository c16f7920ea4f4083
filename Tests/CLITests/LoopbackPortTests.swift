import Glibc
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
        for _ in 0..<20 {
            let port = try #require(LoopbackPort.free())
            #expect(port >= LoopbackPort.floor && port < range.lowerBound)
            #expect(LoopbackPort.bindable(port) == port)
        }
    }

    @Test func aPortWithAListenerIsNotBindable() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let port = try #require(LoopbackPort.free())
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let listening = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(fd, 1) == 0
            }
        }
        try #require(listening)
        #expect(LoopbackPort.bindable(port) == nil)
        #expect(LoopbackPort.bindable(0) != port)
    }
}
