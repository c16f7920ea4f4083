import Foundation
import Processes

#if canImport(Glibc)
    import Glibc
#endif

/// A port on 127.0.0.1 kept out of every other test's reach while a test hands it to listeners one after
/// another (mocks stopped and started again on the same port): a socket bound with `SO_REUSEADDR` but not
/// listening holds it. Listeners that also set `SO_REUSEADDR` (ringcheck's do) can still bind and listen
/// there; a plain `bind` (how `LoopbackPort.free()` probes) fails, so no other test is handed the port
/// between two of the holder's listeners. Released when the object goes.
///
///     let held = try HeldLoopbackPort()
///     options.apnsPort = held.port  // start, stop and start again: nobody else takes it meanwhile
public final class HeldLoopbackPort: @unchecked Sendable {  // immutable after init
    public let port: Int
    private let fd: Int32

    /// Holds a port `LoopbackPort.free()` chose (below the kernel's ephemeral range); tries others when one
    /// is taken between that choice and the hold.
    public init() throws {
        for _ in 0..<64 {
            guard let port = LoopbackPort.free() else { break }
            if let fd = Self.hold(port) {
                self.fd = fd
                self.port = port
                return
            }
        }
        throw MockStackClientError(message: "cannot hold a port on 127.0.0.1: \(String(cString: strerror(errno)))")
    }

    deinit { close(fd) }

    /// A socket with `SO_REUSEADDR` bound to 127.0.0.1:`port` and not listening; nil when the bind fails.
    static func hold(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard withLoopbackAddress(port, { bind(fd, $0, $1) == 0 }) else {
            close(fd)
            return nil
        }
        return fd
    }
}

/// Calls `body` with the address 127.0.0.1:`port` and its length, as `bind` and `connect` take them.
func withLoopbackAddress<T>(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
