import Foundation
import GroveTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Both servers cut off a client too slow to send its request, answered or not: a large
/// `Content-Length` followed by a byte now and then (to a route that answers without reading the body,
/// and to one that reads it) no longer holds a connection for as long as the client likes.
@Suite("Servers cut off clients that drip their requests", .timeLimit(.minutes(3)))
struct SlowClientTests {
    /// A connected loopback socket.
    static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        return fd
    }

    /// Whether the server has closed `fd` (a read gives the end, or the connection was reset); reads
    /// and drops whatever the server answered before.
    static func closedByServer(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    @Test("a dripped body is cut off, answered or not", arguments: ["serve", "sync-server"])
    func drippedBody(command: String) async throws {
        let grove = Grove()
        try FileManager.default.createDirectory(atPath: grove.home, withIntermediateDirectories: true)
        var arguments = [command]
        if command == "sync-server" { arguments += ["--database", grove.home + "/sync-server.sqlite"] }
        let held = try ServeListenTests.HeldPort()
        let port = held.port
        held.close()
        let process = Process()
        process.executableURL = try Grove.binary()
        process.arguments = arguments + ["--port", "\(port)"]
        process.environment = grove.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        try await eventually { !process.isRunning || SyncEndToEndTests.Server.answers(port) }
        try #require(process.isRunning)
        // One to a route that answers at once without reading the body, one to a route that reads it.
        let paths = command == "serve" ? ["/nowhere", "/api/v1/intentions"] : ["/healthz", "/sync/v1/devices"]
        var sockets: [Int32] = []
        for path in paths {
            let fd = try Self.connect(port)
            let head =
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
            _ = head.withCString { send(fd, $0, strlen($0), 0) }
            sockets.append(fd)
        }
        defer { for fd in sockets { close(fd) } }
        // A byte every half second (far under any body's pace), until the server closes each.
        var open = Set(sockets)
        while !open.isEmpty {
            for fd in open {
                if Self.closedByServer(fd) {
                    open.remove(fd)
                } else {
                    _ = send(fd, " ", 1, Int32(MSG_NOSIGNAL))
                }
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        // The server itself is fine and answers others.
        #expect(process.isRunning && SyncEndToEndTests.Server.answers(port))
    }
}
