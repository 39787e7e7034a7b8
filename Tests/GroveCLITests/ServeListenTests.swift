import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `grove serve` and `grove sync-server` with a port another program holds: the real binary, a real
/// socket. They say which port and which option, and never claim to be listening.
@Suite("A taken port is said in words, before anything claims to listen")
struct ServeListenTests {
    /// A socket listening on a free loopback port, held until `close`.
    struct HeldPort {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0 && listen(fd, 4) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            self.fd = fd
            self.port = Int(UInt16(bigEndian: address.sin_port))
        }

        func close() { _ = Glibc.close(fd) }
    }

    @Test("grove serve on a taken port exits 1 naming the port and --port, without \"growing\"", arguments: ["serve", "sync-server"])
    func takenPort(command: String) throws {
        let grove = Grove()
        let held = try HeldPort()
        defer { held.close() }
        let result = try grove.runBinary([command, "--port", "\(held.port)"], timeout: 60)
        #expect(result.status == 1)
        #expect(result.err.contains("port \(held.port) on 127.0.0.1 is already in use by another program"))
        #expect(result.err.contains("--port"))
        #expect(!result.out.contains("growing") && !result.out.contains("listening"))
    }
}
