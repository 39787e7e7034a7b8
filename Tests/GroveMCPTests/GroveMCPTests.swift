import Foundation
import GroveCore
import GroveMCP
import GroveStore
import MCP
import Testing

/// `grove mcp` driven by the Model Context Protocol SDK's own client, in process: the tools listed,
/// today's figures read, writes refused unless allowed, and when allowed, each one store operation
/// with the store's own validation.
@Suite("MCP server")
struct GroveMCPTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, 12:06 in Berlin

    /// A store on a test clock, served to a connected client.
    static func connected(allowWrites: Bool) async throws -> (Client, AppDatabase, TestClock) {
        let clock = TestClock(start)
        let database = try AppDatabase.inMemory(
            environment: GroveEnvironment(
                now: { clock.now }, uuid: { UUID() }, systemTimeZone: { TimeZone(identifier: "Europe/Berlin") ?? .current }))
        let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
        let grove = GroveMCP(database: database, allowWrites: allowWrites)
        Task { try await grove.run(transport: serverSide) }
        let client = Client(name: "grove-tests", version: "1")
        _ = try await client.connect(transport: clientSide)
        return (client, database, clock)
    }

    static func text(_ content: [Tool.Content]) -> String {
        content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    @Test("read-only: the tools listed, today read, a write refused and nothing changed")
    func readOnly() async throws {
        let (client, database, clock) = try await Self.connected(allowWrites: false)
        _ = try database.intentions.set("Write the introduction", scope: .day)
        _ = try database.focus.log(start: clock.now.addingTimeInterval(-3600), end: clock.now.addingTimeInterval(-2100))
        let tools = try await client.listTools().tools.map(\.name)
        #expect(Set(tools) == ["today", "focus_stats", "forest", "pause_figures", "weekly_review", "timers"])
        let (today, failed) = try await client.callTool(name: "today", arguments: [:])
        #expect(failed != true)
        let json = Self.text(today)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect((answer["intention"] as? [String: Any])?["text"] as? String == "Write the introduction")
        #expect(answer["date"] as? String == "2026-11-18")
        #expect((answer["today"] as? [String: Any])?["trees"] as? Int == 1, "\(answer)")
        let (refused, isError) = try await client.callTool(name: "set_intention", arguments: ["text": "Sneaked in"])
        #expect(isError == true && Self.text(refused).contains("--allow-writes"))
        #expect(try database.intentions.current()?.text == "Write the introduction")
        let (_, unknown) = try await client.callTool(name: "drop_tables", arguments: [:])
        #expect(unknown == true)
    }

    @Test("with --allow-writes: a session started and an intention set, with the store's own rules and messages")
    func writes() async throws {
        let (client, database, _) = try await Self.connected(allowWrites: true)
        #expect(Set(try await client.listTools().tools.map(\.name)).isSuperset(of: ["start_focus", "set_intention"]))
        let (set, setFailed) = try await client.callTool(name: "set_intention", arguments: ["text": "Ship the chapter", "scope": "week"])
        #expect(setFailed != true, "\(Self.text(set))")
        #expect(try database.intentions.current()?.text == "Ship the chapter")
        let (blank, blankFailed) = try await client.callTool(name: "set_intention", arguments: ["text": "   "])
        #expect(blankFailed == true && Self.text(blank).hasPrefix("text:"), "\(Self.text(blank))")
        let (badScope, scopeFailed) = try await client.callTool(name: "set_intention", arguments: ["text": "x", "scope": "year"])
        #expect(scopeFailed == true && Self.text(badScope).hasPrefix("scope:"), "\(Self.text(badScope))")
        let (tooLong, longFailed) = try await client.callTool(name: "start_focus", arguments: ["minutes": 100_000])
        #expect(longFailed == true && Self.text(tooLong).hasPrefix("minutes:"), "\(Self.text(tooLong))")
        #expect(try database.focus.current() == nil)
        let (started, startFailed) = try await client.callTool(name: "start_focus", arguments: ["minutes": 25, "tags": ["writing"]])
        #expect(startFailed != true, "\(Self.text(started))")
        let session = try #require(try database.focus.current())
        #expect(session.plannedDuration == 25 * 60 && session.tags == ["writing"])
        // A second start while a tree grows: the store's own refusal, in its words.
        let (again, againFailed) = try await client.callTool(name: "start_focus", arguments: [:])
        #expect(againFailed == true && !Self.text(again).isEmpty)
    }
}
