import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import GroveHTTP

/// The lines a logger was given.
final class Lines: Sendable {
    let lines = Mutex<[(Logger.Level, String)]>([])
    var all: [(Logger.Level, String)] { lines.withLock { $0 } }

    func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(lines: self) }
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.lines.withLock { $0.append((event.level, "\(event.message)")) } }
    }
}

@Suite("One log line per request: method, path, status, time")
struct RequestLogMiddlewareTests {
    static func app(_ logger: Logger) -> some ApplicationProtocol {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.get("focus") { _, _ in "ok" }
        router.get("refused") { _, _ -> String in throw HTTPError(.unauthorized) }
        return Application(router: router)
    }

    @Test("answered, refused and unknown requests each write one info line; the query is left out")
    func lines() async throws {
        let lines = Lines()
        try await Self.app(lines.logger(level: .info)).test(.router) { client in
            _ = try await client.execute(uri: "/focus?token=secret", method: .get) { $0 }
            _ = try await client.execute(uri: "/refused", method: .get) { $0 }
            _ = try await client.execute(uri: "/nowhere", method: .get) { $0 }
            _ = try await client.execute(uri: "/focus", method: .head) { $0 }
        }
        let logged = lines.all
        #expect(logged.count == 4)
        #expect(logged.allSatisfy { $0.0 == .info })
        let pattern = /^(GET|HEAD) (\/\w+) (\d{3}) \d+\.\d ms$/
        let parsed = logged.compactMap { try? pattern.wholeMatch(in: $0.1).map { ("\($0.1)", "\($0.2)", "\($0.3)") } }
        #expect(parsed.count == 4)
        #expect(parsed.map(\.0) == ["GET", "GET", "GET", "HEAD"])
        #expect(parsed.map(\.1) == ["/focus", "/refused", "/nowhere", "/focus"])
        #expect(parsed.map(\.2) == ["200", "401", "404", "200"])
        #expect(!logged.contains { $0.1.contains("secret") })
    }

    @Test("above info (the default, notice), nothing is written")
    func quietByDefault() async throws {
        let lines = Lines()
        try await Self.app(lines.logger(level: .notice)).test(.router) { client in
            _ = try await client.execute(uri: "/focus", method: .get) { $0 }
        }
        #expect(lines.all.isEmpty)
    }

    @Test("milliseconds read the same in every locale", arguments: [(0.04, "0.0"), (1.25, "1.3"), (12.0, "12.0"), (1234.56, "1234.6")])
    func format(value: Double, text: String) {
        #expect(RequestLogMiddleware<BasicRequestContext>.format(value) == text)
    }
}
