import Foundation
import Testing

/// Imports refuse what they cannot read for sure — naming the field or column and the rule — and
/// change nothing; what only looks odd (a byte-order mark) is read.
@Suite("grove import: nonsense refused by name, nothing changed")
struct ImportNonsenseTests {
    func file(_ g: Grove, _ name: String, _ text: String) throws -> String {
        let path = g.home + "-" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Sessions in the store (all states), as the JSON export lists them.
    func sessions(_ g: Grove) async throws -> Int {
        let export = try await g.run("export")
        return (try export.object()["focusSessions"] as? [Any])?.count ?? -1
    }

    @Test("Forest's Is Success must say yes or no; two columns of one name are refused; a byte-order mark is read")
    func forestCSV() async throws {
        let g = Grove(timeZone: "UTC", now: "2025-04-02T12:00:00Z")
        let header = "Start Time,End Time,Tag,Note,Tree Type,Is Success\n"
        let maybe = try file(
            g, "maybe.csv",
            header + "2025-04-01 09:00:00,2025-04-01 09:25:00,work,,Cedar,True\n2025-04-01 10:00:00,2025-04-01 10:25:00,work,,Cedar,maybe\n"
        )
        let refused = try await g.run("import", "--from", "forest", maybe)
        #expect(refused.status == 64)
        #expect(refused.err.contains("Row 2") && refused.err.contains("Is Success") && refused.err.contains("maybe"), "\(refused.err)")
        #expect(try await sessions(g) == 0)

        let twice = try file(g, "twice.csv", "Start,Start,End\n2025-04-01T09:00:00Z,2025-04-01T08:00:00Z,2025-04-01T09:25:00Z\n")
        let ambiguous = try await g.run("import", "--from", "csv", "--map", "start=Start,end=End", twice)
        #expect(ambiguous.status == 64)
        #expect(ambiguous.err.contains("two columns named \"Start\""), "\(ambiguous.err)")
        #expect(try await sessions(g) == 0)

        let marked = try file(g, "bom.csv", "\u{FEFF}" + header + "2025-04-01 09:00:00,2025-04-01 09:25:00,work,,Cedar,False\n")
        let read = try await g.run("import", "--from", "forest", marked)
        #expect(read.status == 0, "\(read.err)")
        #expect(try await sessions(g) == 1)
    }

    @Test("a timewarrior file with a byte-order mark is read; a text longer than any field holds is refused by name")
    func timewarrior() async throws {
        let g = Grove(timeZone: "UTC", now: "2025-04-02T12:00:00Z")
        let interval = #"{"id":1,"start":"20250401T090000Z","end":"20250401T092500Z","tags":["essay"]}"#
        let marked = try file(g, "bom.json", "\u{FEFF}[" + interval + "]")
        let read = try await g.run("import", "--from", "timewarrior", marked)
        #expect(read.status == 0, "\(read.err)")
        let long = String(repeating: "x", count: 2 << 20)
        let huge = try file(g, "long.json", #"[{"id":2,"start":"20250402T090000Z","end":"20250402T092500Z","tags":[""# + long + #""]}]"#)
        let refused = try await g.run("import", "--from", "timewarrior", huge)
        #expect(refused.status == 64)
        #expect(refused.err.contains("tags") && refused.err.contains("longer than 1 MiB"), "\(refused.err.prefix(300))")
        #expect(try await sessions(g) == 1)
    }

    @Test("a Grove export with a field twice, a text past the limit or a timer icon no face takes is refused by name")
    func groveJSON() async throws {
        let g = Grove(timeZone: "UTC", now: "2025-04-02T12:00:00Z")
        #expect(try await g.run("timer", "add", "Tea", "--duration", "5m").status == 0)
        let export = try await g.run("export").out
        let other = Grove(timeZone: "UTC", now: "2025-04-02T12:00:00Z")
        func refused(_ name: String, _ text: String, naming field: String) async throws {
            let result = try await other.run("import", try file(other, name, text))
            #expect(result.status == 64, "\(name): \(result.err.prefix(300))")
            #expect(result.err.contains(field), "\(name): \(result.err.prefix(300))")
            #expect(try await other.run("timer", "list", "--json").array().isEmpty, "\(name) changed the store")
        }
        // A field twice at the top: which one is meant cannot be known.
        let brace = try #require(export.firstIndex(of: "{"))
        var twice = export
        twice.insert(contentsOf: #""timers" : [],"#, at: twice.index(after: brace))
        try await refused("twice.json", twice, naming: "timers")
        // An icon the CLI and the API refuse: no symbol's name (any symbol's name is kept).
        let icon = try #require(export.range(of: #""icon":""#), "\(export.prefix(2000))")
        let odd = export.replacingCharacters(in: icon, with: #""icon":"rocket ship!","x":""#)
        try await refused("icon.json", odd, naming: "timers[0].icon")
        // One text longer than any field holds: refused as it streams past.
        let long = export.replacingOccurrences(of: "\"Tea\"", with: "\"" + String(repeating: "y", count: 2 << 20) + "\"")
        try await refused("long.json", long, naming: "longer than 1 MiB")
        // Many small texts: everything but the sessions is small, and held only that far.
        let item = #"{"id":"x","name":"y"},"#
        let many = export.replacingOccurrences(
            of: #""themes" : ["#, with: #""themes" : ["# + String(repeating: item, count: (17 << 20) / item.utf8.count))
        #expect(many != export)
        try await refused("many.json", many, naming: "themes: more than 16 MiB with the other fields besides focusSessions")
    }

    @Test("an API key file that is a directory is refused when it is given, not later")
    func apiKeyDirectory() async throws {
        let g = Grove()
        let result = try await g.run("assistant", "set", "--url", "http://127.0.0.1:9/v1", "--model", "llama3.2", "--api-key-file", "/tmp")
        #expect(result.status == 64, "\(result.err)")
        #expect(result.err.contains("api-key-file"), "\(result.err)")
    }
}
