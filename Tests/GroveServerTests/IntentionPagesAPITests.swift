import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// `GET /api/v1/intentions` a page at a time: the Link header's cursor walks the whole list once.
@Suite("Intentions a page at a time through the API")
struct IntentionPagesAPITests {
    @Test func theNextLinkWalksEveryIntentionOnce() async throws {
        let server = try await TestServer()
        for day in 1...5 { try server.database.intentions.set("Day \(day)", scope: .day, date: LocalDay("2026-11-0\(day)")) }
        try await server.test { client in
            var path = "/api/v1/intentions?scope=day&limit=2"
            var texts: [String] = []
            for _ in 0..<5 {
                let page = try await client.get(path)
                #expect(page.status == 200, "\(page.text)")
                texts += page.array.compactMap { $0["text"] as? String }
                guard let link = page.link, let start = link.firstIndex(of: "<"), let end = link.firstIndex(of: ">") else { break }
                path = String(link[link.index(after: start)..<end])
                #expect(path.contains("scope=day") && path.contains("after="), "\(path)")
            }
            #expect(texts == ["Day 5", "Day 4", "Day 3", "Day 2", "Day 1"])
            let bad = try await client.get("/api/v1/intentions?after=tuesday")
            #expect(bad.status == 400 && bad.object["field"] as? String == "after", "\(bad.text)")
            let tooMany = try await client.get("/api/v1/intentions?limit=5000")
            #expect(tooMany.status == 400 && tooMany.object["field"] as? String == "limit", "\(tooMany.text)")
        }
    }
}
