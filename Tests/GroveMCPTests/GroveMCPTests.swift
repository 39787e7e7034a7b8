import Foundation
import GroveCore
import GroveMCP
import GroveStore
import Testing

/// `grove mcp` in process, message by message as a client sends them: the handshake, the tools
/// listed, today's figures read, writes refused unless allowed, and when allowed, each one store
/// operation with the store's own validation; JSON-RPC's errors for what is not a request.
@Suite("MCP server")
struct GroveMCPTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, 12:06 in Berlin

    /// A store on a test clock in Berlin, and the server over it.
    static func server(allowWrites: Bool) throws -> (GroveMCP, AppDatabase, TestClock) {
        let clock = TestClock(start)
        let database = try AppDatabase.inMemory(
            environment: .test(clock: clock, zone: TimeZone(identifier: "Europe/Berlin") ?? .current))
        return (GroveMCP(database: database, allowWrites: allowWrites), database, clock)
    }

    /// The answer to one line, decoded (nil: no answer).
    static func send(_ server: GroveMCP, _ line: String) throws -> [String: Any]? {
        guard let answer = server.respond(to: Data(line.utf8)) else { return nil }
        #expect(!answer.contains(0x0A), "one answer, one line")
        return try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
    }

    /// A tool call's text and whether it was refused.
    static func call(_ server: GroveMCP, _ tool: String, _ arguments: String = "{}") throws -> (text: String, isError: Bool) {
        let answer = try send(
            server, #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#)
        let result = try #require(answer?["result"] as? [String: Any], "\(String(describing: answer))")
        let text = (result["content"] as? [[String: Any]])?.compactMap { $0["text"] as? String }.joined() ?? ""
        return (text, result["isError"] as? Bool ?? false)
    }

    @Test("the handshake names Grove and the protocol revision, and a notification gets no answer")
    func handshake() throws {
        let (server, _, _) = try Self.server(allowWrites: false)
        let hello = try #require(
            try Self.send(
                server,
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
            ))
        let result = try #require(hello["result"] as? [String: Any])
        #expect(result["protocolVersion"] as? String == "2025-03-26")
        #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "grove")
        #expect((result["capabilities"] as? [String: Any])?["tools"] != nil)
        #expect(hello["id"] as? Int == 1)
        let future = try Self.send(server, #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2099-01-01"}}"#)
        #expect((future?["result"] as? [String: Any])?["protocolVersion"] as? String == GroveMCP.protocolVersions[0])
        #expect(future?["id"] as? String == "a")
        #expect(try Self.send(server, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect(try Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)?["result"] as? [String: Any] != nil)
    }

    @Test(
        "what is not a request gets JSON-RPC's error code, and the session goes on",
        arguments: [
            ("{not json", -32700), (#"[1,2]"#, -32600), (#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":1}"#, -32600), (#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#, -32601),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"today","arguments":[1]}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}"#, -32602),
        ])
    func errors(line: String, code: Int) throws {
        let (server, _, _) = try Self.server(allowWrites: false)
        let answer = try #require(try Self.send(server, line))
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == code, "\(answer)")
        let message = (answer["error"] as? [String: Any])?["message"] as? String
        #expect(message?.isEmpty == false)
        #expect(try Self.send(server, #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)?["result"] != nil)
    }

    @Test("read-only: the tools listed, today read, a write refused and nothing changed")
    func readOnly() throws {
        let (server, database, clock) = try Self.server(allowWrites: false)
        _ = try database.intentions.set("Write the introduction", scope: .day)
        _ = try database.focus.log(start: clock.now.addingTimeInterval(-3600), end: clock.now.addingTimeInterval(-2100))
        let list = try Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        let tools = try #require((list?["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        #expect(
            Set(tools.compactMap { $0["name"] as? String }) == [
                "today", "focus_stats", "forest", "pause_figures", "weekly_review", "timers",
            ])
        #expect(tools.allSatisfy { ($0["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool == true })
        #expect(tools.allSatisfy { ($0["inputSchema"] as? [String: Any])?["type"] as? String == "object" })
        let today = try Self.call(server, "today")
        #expect(!today.isError)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(today.text.utf8)) as? [String: Any], "\(today.text)")
        #expect((answer["intention"] as? [String: Any])?["text"] as? String == "Write the introduction")
        #expect(answer["date"] as? String == "2026-11-18")
        #expect((answer["today"] as? [String: Any])?["trees"] as? Int == 1, "\(answer)")
        let refused = try Self.call(server, "set_intention", #"{"text":"Sneaked in"}"#)
        #expect(refused.isError && refused.text.contains("--allow-writes"))
        #expect(try database.intentions.current()?.text == "Write the introduction")
        #expect(try Self.call(server, "drop_tables").isError)
        let badDay = try Self.call(server, "pause_figures", #"{"from":"2026-13-01"}"#)
        #expect(badDay.isError && badDay.text.hasPrefix("from:"), "\(badDay.text)")
        let backwards = try Self.call(server, "pause_figures", #"{"from":"2026-11-10","to":"2026-11-01"}"#)
        #expect(backwards.isError && backwards.text.hasPrefix("from:"), "\(backwards.text)")
        let forest = try Self.call(server, "forest", #"{"days":1e9}"#)
        #expect(forest.isError && forest.text.hasPrefix("days:"), "\(forest.text)")
    }

    @Test("with --allow-writes: a session started and an intention set, with the store's own rules and messages")
    func writes() throws {
        let (server, database, _) = try Self.server(allowWrites: true)
        let list = try Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        let names = ((list?["result"] as? [String: Any])?["tools"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(Set(names).isSuperset(of: ["start_focus", "set_intention"]))
        let set = try Self.call(server, "set_intention", #"{"text":"Ship the chapter","scope":"week"}"#)
        #expect(!set.isError, "\(set.text)")
        #expect(try database.intentions.current()?.text == "Ship the chapter")
        let blank = try Self.call(server, "set_intention", #"{"text":"   "}"#)
        #expect(blank.isError && blank.text.hasPrefix("text:"), "\(blank.text)")
        let badScope = try Self.call(server, "set_intention", #"{"text":"x","scope":"year"}"#)
        #expect(badScope.isError && badScope.text.hasPrefix("scope:"), "\(badScope.text)")
        let tooLong = try Self.call(server, "start_focus", #"{"minutes":100000}"#)
        #expect(tooLong.isError && tooLong.text.hasPrefix("minutes:"), "\(tooLong.text)")
        let fraction = try Self.call(server, "start_focus", #"{"minutes":2.5}"#)
        #expect(fraction.isError && fraction.text.hasPrefix("minutes:"), "\(fraction.text)")
        #expect(try database.focus.current() == nil)
        let started = try Self.call(server, "start_focus", #"{"minutes":25,"tags":["writing"]}"#)
        #expect(!started.isError, "\(started.text)")
        let session = try #require(try database.focus.current())
        #expect(session.plannedDuration == 25 * 60 && session.tags == ["writing"])
        // A second start while a tree grows: the store's own refusal, in its words.
        let again = try Self.call(server, "start_focus")
        #expect(again.isError && !again.text.isEmpty)
    }

    @Test("over a pipe: one answer line per request, a message over the limit refused whole, and the end of input ends it")
    func overAPipe() throws {
        let (server, _, _) = try Self.server(allowWrites: false)
        let input = Pipe(), output = Pipe()
        let huge = String(repeating: "x", count: GroveMCP.messageLimit + 10)
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "", #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"\#(huge)"}}"#, #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
        ]
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: Data(lines.joined(separator: "\n").utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        try server.run(input: input.fileHandleForReading.fileDescriptor, output: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let answers = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(answers.count == 3, "\(text.prefix(500))")
        #expect(answers.first?["id"] as? Int == 1)
        #expect((answers.dropFirst().first?["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect(answers.last?["id"] as? Int == 3)
    }
}
