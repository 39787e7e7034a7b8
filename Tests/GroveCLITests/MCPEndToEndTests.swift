import Foundation
import Testing

/// `grove mcp` as an assistant runs it: the real binary, JSON-RPC lines on its standard input and
/// output, the store of the person's own Grove.
@Suite("grove mcp over stdio")
struct MCPEndToEndTests {
    /// A running `grove mcp`: requests written as lines, answers read by id.
    final class Session: @unchecked Sendable {
        let process = Process()
        let input = Pipe(), output = Pipe()
        let lock = NSCondition()
        var answers: [Int: [String: Any]] = [:]
        var buffer = Data()

        init(_ grove: Grove, _ arguments: [String]) throws {
            process.executableURL = try Grove.binary()
            process.arguments = ["mcp"] + arguments
            process.environment = grove.environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            output.fileHandleForReading.readabilityHandler = { [self] handle in
                let data = handle.availableData
                lock.lock()
                buffer.append(data)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let id = object["id"] as? Int {
                        answers[id] = object
                    }
                }
                lock.broadcast()
                lock.unlock()
            }
            try process.run()
        }

        func send(_ json: String) { input.fileHandleForWriting.write(Data((json + "\n").utf8)) }

        /// The answer to request `id`, waited for as it arrives (bounded: a hang fails, not blocks).
        func answer(_ id: Int) -> [String: Any]? {
            let deadline = Date().addingTimeInterval(60)
            lock.lock()
            defer { lock.unlock() }
            while answers[id] == nil, lock.wait(until: deadline) {}
            return answers[id]
        }

        func call(_ id: Int, _ tool: String, _ arguments: String = "{}") -> (text: String, isError: Bool) {
            send(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#)
            let result = answer(id)?["result"] as? [String: Any]
            let text = (result?["content"] as? [[String: Any]])?.compactMap { $0["text"] as? String }.joined() ?? ""
            return (text, result?["isError"] as? Bool ?? false)
        }

        /// Ends the session as a client does (stdin closed) and returns the exit status.
        func close() -> Int32 {
            try? input.fileHandleForWriting.close()
            let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
            process.waitUntilExit()
            watchdog.cancel()
            output.fileHandleForReading.readabilityHandler = nil
            return process.terminationStatus
        }

        func start() {
            send(
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}}"#
            )
            _ = answer(1)
            send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        }
    }

    @Test("lists its tools, reads today's stats, and refuses a write unless started with --allow-writes")
    func readOnlyThenWrites() throws {
        // A frozen clock: "09:00" today must be in the past whenever the suite runs.
        let grove = Grove(now: "2026-11-23T12:00:00Z")
        #expect(try grove.runBinary("intention", "set", "Write the introduction").status == 0)
        #expect(try grove.runBinary("focus", "log", "--start", "09:00", "--end", "09:25").status == 0)
        let session = try Session(grove, [])
        session.start()
        session.send(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        let tools = ((session.answer(2)?["result"] as? [String: Any])?["tools"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(tools.map(Set.init) == ["today", "focus_stats", "forest", "pause_figures", "weekly_review", "timers"])
        let today = session.call(3, "today")
        #expect(!today.isError && today.text.contains("Write the introduction") && today.text.contains("\"trees\" : 1"), "\(today.text)")
        let stats = session.call(4, "focus_stats")
        #expect(!stats.isError && stats.text.contains("currentStreak"), "\(stats.text)")
        let refused = session.call(5, "set_intention", #"{"text":"Sneaked in"}"#)
        #expect(refused.isError && refused.text.contains("--allow-writes"))
        #expect(session.close() == 0)
        #expect(try grove.runBinary("intention", "now").out.contains("Write the introduction"))

        let writer = try Session(grove, ["--allow-writes"])
        writer.start()
        let set = writer.call(2, "set_intention", #"{"text":"Ship chapter two"}"#)
        #expect(!set.isError, "\(set.text)")
        let blank = writer.call(3, "set_intention", #"{"text":" "}"#)
        #expect(blank.isError && blank.text.hasPrefix("text:"), "\(blank.text)")
        #expect(writer.close() == 0)
        #expect(try grove.runBinary("intention", "now").out.contains("Ship chapter two"))
    }
}
