#if canImport(Glibc)
    import Glibc
#endif

/// Ports on 127.0.0.1 to hand a child process that must listen where ringcheck can find it.
public enum LoopbackPort {
    /// The lowest port `free()` picks from.
    static let floor = 10_000

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound and released); nil when none is.
    ///
    /// Picked at random below the kernel's ephemeral range (`ip_local_port_range`) when there is room:
    /// the kernel hands ports in that range to every outgoing connection and every bind to port 0, so
    /// one of those taken there could be gone before the child binds it (seen under a loaded test run).
    /// Falls back to a port the kernel chooses.
    public static func free() -> Int? {
        let ephemeralLow = ephemeralRange()?.lowerBound ?? 32768
        if ephemeralLow - floor >= 1000 {
            for _ in 0..<64 {
                if let port = bindable(Int.random(in: floor..<ephemeralLow)) { return port }
            }
        }
        return bindable(0)
    }

    /// `port` (or, for 0, the port the kernel chose) when a socket could bind it on 127.0.0.1.
    static func bindable(_ port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// The kernel's ephemeral port range, from `/proc/sys/net/ipv4/ip_local_port_range` ("32768\t60999").
    static func ephemeralRange() -> ClosedRange<Int>? {
        guard let file = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = fread(&buffer, 1, buffer.count, file)
        let fields = String(decoding: buffer[..<n], as: UTF8.self).split(whereSeparator: {
            $0 == " " || $0 == "\t" || $0 == "\n"
        })
        guard fields.count >= 2, let low = Int(fields[0]), let high = Int(fields[1]), low > 0, low <= high else {
            return nil
        }
        return low...high
    }
}
