import Foundation
import Testing

/// One formatter, one vocabulary: what a face says matches what the others say and what it does.
@Suite("Faces that agree")
struct OneFormatterTests {
    @Test("time left reads 1:30:00 on the dashboard as in `focus status` and `grove now`")
    func timeLeftOneFormat() async throws {
        let g = Grove(timeZone: "UTC", now: "2025-05-01T12:00:00Z")
        #expect(try await g.run("focus", "start", "--length", "90m").status == 0)
        let dashboard = try await g.run([], now: "2025-05-01T12:00:00Z").out
        #expect(dashboard.contains("1:30:00 left"), "\(dashboard)")
        #expect(!dashboard.contains("90:00"), "\(dashboard)")
        #expect(try await g.run("focus", "status", now: "2025-05-01T12:00:00Z").out.contains("1:30:00"))
    }

    @Test("the calendar export carries each session's tags, escaped as RFC 5545 text")
    func icsCarriesTags() async throws {
        let g = Grove(timeZone: "UTC", now: "2025-05-01T12:00:00Z")
        #expect(try await g.run("focus", "log", "--start", "09:00", "--end", "09:25", "--tag", "deep; work", "--tag", "essay").status == 0)
        let ics = try await g.run("export", "--format", "ics").out
        #expect(ics.contains(#"CATEGORIES:Grove,Focus,deep\; work,essay"#), "\(ics)")
    }

    @Test("`grove serve --help` names the port it listens on")
    func serveHelpNamesItsPort() async throws {
        let help = try await Grove().run("serve", "--help").out
        #expect(help.contains("127.0.0.1:4768") && !help.contains("8080"), "\(help)")
    }
}
