import Foundation
import Testing

@testable import GroveCLI

/// The everyday command lines that run without ArgumentParser (`EverydayParse.immediate`) say
/// exactly what the parsed command says — output, errors and status — so a default that drifts
/// between the two (an order, a window, a filter) fails here.
@Suite("Everyday commands without a parse")
struct ImmediateFormsTests {
    static let forms: [[String]] = [
        [], ["--json"], ["forest"], ["forest", "--json"], ["stats"], ["stats", "--json"], ["review"], ["review", "--json"],
        ["timer"], ["timer", "--json"], ["timer", "list"], ["timer", "list", "--json"], ["intention"], ["intention", "--json"],
        ["intention", "list"], ["intention", "list", "--json"], ["focus", "status"], ["focus", "status", "--json"],
        ["pause", "stats"], ["pause", "stats", "--json"], ["pause", "weeks"], ["pause", "weeks", "--json"], ["export"],
        ["export", "--format", "csv"], ["export", "--format", "ics"], ["export", "--format", "json"],
    ]

    /// A week of use: timers made at different instants (their default order is not their names'),
    /// intentions of two scopes, sessions on two days (one tagged), a gated app.
    static func populated() async throws -> Grove {
        let grove = Grove(timeZone: "Europe/Berlin", now: "2026-11-25T10:00:00Z")
        let steps: [([String], String)] = [
            (["setup", "--skip"], "2026-11-20T08:00:00Z"),
            (["timer", "add", "Alpha", "--duration", "3m"], "2026-11-20T09:00:00Z"),
            (["timer", "add", "Zeta", "--duration", "5m"], "2026-11-21T09:00:00Z"),
            (["intention", "set", "Write the intro"], "2026-11-25T08:00:00Z"),
            (["intention", "set", "Ship the draft", "--scope", "week"], "2026-11-25T08:01:00Z"),
            (["focus", "log", "--start", "2026-11-23 09:00", "--end", "2026-11-23 09:25", "--tag", "essay"], "2026-11-24T08:00:00Z"),
            (["focus", "log", "--start", "2026-11-24 14:00", "--end", "2026-11-24 14:50"], "2026-11-24T16:00:00Z"),
            (["apps", "enable", "youtube"], "2026-11-24T16:00:00Z"),
        ]
        for (arguments, now) in steps {
            let result = try await grove.run(arguments, now: now)
            #expect(result.status == 0, "\(arguments): \(result.err)")
        }
        return grove
    }

    @Test func eachFormSaysWhatTheParsedCommandSays() async throws {
        let grove = try await Self.populated()
        for arguments in Self.forms + Self.forms.filter { !$0.isEmpty }.map({ $0 + ["--database", grove.home + "/grove.sqlite"] }) {
            #expect(EverydayParse.immediate(arguments) != nil, "\(arguments) runs without a parse")
            let immediate = try await grove.run(arguments)
            let parsed = try await grove.run(arguments, parsed: true)
            #expect(immediate.status == 0 && !immediate.out.isEmpty, "\(arguments): \(immediate.err)")
            #expect(immediate.out == parsed.out, "\(arguments)")
            #expect(immediate.err == parsed.err && immediate.status == parsed.status, "\(arguments)")
        }
    }

    @Test func aStoreThatCannotOpenIsSaidTheSameWay() async throws {
        let grove = Grove()
        for arguments in [["timer", "list", "--database", "/nonexistent/folder/g.sqlite"], ["stats", "--database=/proc/g.sqlite"]] {
            #expect(EverydayParse.immediate(arguments) != nil)
            let immediate = try await grove.run(arguments)
            let parsed = try await grove.run(arguments, parsed: true)
            #expect(immediate.status != 0 && immediate.status == parsed.status, "\(arguments)")
            #expect(!immediate.err.isEmpty && immediate.err == parsed.err, "\(arguments)")
        }
    }

    /// A command's own options, help, mistakes and any other command go to ArgumentParser.
    @Test(arguments: [
        ["timer", "list", "--sort", "name"], ["forest", "--days", "3"], ["stats", "--tag", "essay"], ["review", "--week", "last"],
        ["--help"], ["timer", "--help"], ["timer", "add", "Tea"], ["--json", "timer"], ["--json", "--json"], ["forest", "--database"],
        ["forest", "--database", ""], ["forest", "--database=", "--json"], ["intention", "--date", "2026-01-01"], ["now"],
        ["pause", "youtube"], ["stat"], ["export", "--format", "CSV"], ["export", "--format=csv"],
        ["export", "--format", "csv", "--tag", "essay"],
    ])
    func everythingElseIsParsed(arguments: [String]) {
        #expect(EverydayParse.immediate(arguments) == nil)
    }
}
