import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback ports for tests that need a server that is not there.
public enum TestPorts {
    /// A port on 127.0.0.1 that nothing listens on: one the system just gave and took back, so
    /// that a connection to it is refused at once (a provider or server that is down).
    /// - Throws: ``FixtureFailure`` when no socket can be had.
    public static func closed() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw FixtureFailure("bind 127.0.0.1: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}
