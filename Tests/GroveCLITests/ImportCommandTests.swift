import Foundation
import Testing

@Suite("grove import --from, end to end")
struct ImportCommandTests {
    static let timewarrior = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/timewarrior/export.json").path

    @Test func timewarriorsExportThenGrovesOwnCSVBackAgain() async throws {
        let g = Grove(timeZone: "Europe/Berlin", now: "2025-04-02T12:00:00Z")
        let first = try await g.run("import", "--from", "timewarrior", Self.timewarrior, "--json")
        #expect(first.status == 0)
        let report = try first.object()
        #expect(report["format"] as? String == "timewarrior" && report["imported"] as? Int == 6 && report["skippedCount"] as? Int == 2)
        #expect((report["skipped"] as? [[String: Any]])?.map { $0["row"] as? Int } == [6, 8])
        let again = try await g.run("import", "--from", "timewarrior", Self.timewarrior)
        #expect(again.out.hasPrefix("Imported 0 sessions; 6 were already there; 2 skipped."))
        #expect(again.out.contains("row 8: an open interval (still running)"))

        // Grove's CSV export reads back in (it used to be refused as "not valid JSON").
        let csv = try await g.run("export", "--format", "csv").out
        let file = g.home + "-sessions.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let other = Grove(timeZone: "UTC", now: "2025-04-02T12:00:00Z")
        let back = try await other.run("import", file)
        #expect(back.status == 0 && back.out.hasPrefix("Imported 6 sessions."))
        #expect(try await other.run("export", "--format", "csv").out == csv)

        // Usage mistakes are exit 64 and change nothing.
        #expect(try await g.run("import", "--from", "csv", file).status == 64)
        #expect(try await g.run("import", "--from", "timewarrior", "--map", "start=A,end=B", file).status == 64)
        #expect(try await g.run("import", "--from", "csv", "--map", "start=When,end=Until", file).status == 64)
        #expect(try await g.run("import", "--from", "timewarrior", file).status == 64)
        #expect(try await g.run("import", "--from", "forest", file).status == 64)
    }
}
