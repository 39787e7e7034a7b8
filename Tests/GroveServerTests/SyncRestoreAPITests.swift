import Foundation
import GroveCore
import GroveStore
import GroveSync
import GroveTestSupport
import NIOConcurrencyHelpers
import Testing

@testable import GroveServer

/// Going back to an earlier moment from the web app (a phone has no `grove sync restore`): what would
/// change, then — asked again — going back, with the same operation as the CLI, against a real sync
/// server on 127.0.0.1 whose clock the test moves.
@Suite("Sync restore points through the API", .timeLimit(.minutes(5)))
struct SyncRestoreAPITests {
    @Test("the web says what going back would change, changes nothing until asked again, then every device goes back")
    func goBackThroughTheAPI() async throws {
        // The server's clock runs ahead of the devices' by what the test adds (never behind: a device
        // clock ahead of the server's is refused), so that each step lands at its own instant.
        let ahead = NIOLockedValueBox(0.0)
        try await SyncKeysAPITests.withSyncServer(users: ["ada"], now: { Date().addingTimeInterval(ahead.withLockedValue { $0 }) }) {
            url, folder in
            let laptop = try SyncKeysAPITests.store("laptop", in: folder), desktop = try SyncKeysAPITests.store("desktop", in: folder)
            try await SyncKeysAPITests.link(laptop, url, name: "laptop")
            try await SyncKeysAPITests.link(desktop, url, name: "desktop")
            let essay = try laptop.timers.create(name: "Essay", durationInSeconds: 1500)
            var laptopSync = try SyncConnection(database: laptop).engine()
            _ = try await laptopSync.sync()
            ahead.withLockedValue { $0 += 60 }
            let before = Date().addingTimeInterval(ahead.withLockedValue { $0 })
            ahead.withLockedValue { $0 += 60 }
            _ = try laptop.timers.update(id: essay.id, name: "Essay, second draft")
            _ = try laptop.timers.create(name: "Made after", durationInSeconds: 600)
            _ = try await laptopSync.sync()

            let server = try await TestServer(database: desktop)
            try await server.test { client in
                let asOf = GroveExport.formatInstant(before)
                let preview = try await client.post("/api/v1/sync/restore", #"{"asOf": "\#(asOf)"}"#)
                #expect(preview.status == 200, "\(preview.text)")
                #expect(preview.object["applied"] as? Bool == false)
                #expect(preview.object["changed"] as? Int == 1 && preview.object["removed"] as? Int == 1, "\(preview.text)")
                #expect(Set(try desktop.timers.all().map(\.name)) == ["Essay, second draft", "Made after"], "nothing written yet")

                let applied = try await client.post("/api/v1/sync/restore", #"{"asOf": "\#(asOf)", "apply": true}"#)
                #expect(applied.status == 200 && applied.object["applied"] as? Bool == true, "\(applied.text)")
                #expect(try desktop.timers.all().map(\.name) == ["Essay"])
                var laterSync = try SyncConnection(database: laptop).engine()
                _ = try await laterSync.sync()
                #expect(try laptop.timers.all().map(\.name) == ["Essay"], "the other device goes back at its next sync")

                let future = GroveExport.formatInstant(Date().addingTimeInterval(3600))
                // The server's rule, named by its field (the device's clock may differ from the server's).
                let refused = try await client.post("/api/v1/sync/restore", #"{"asOf": "\#(future)"}"#)
                expectProblem(refused, 422, field: "asOf", detail: "an instant in the past")
                expectProblem(try await client.post("/api/v1/sync/restore", #"{"apply": true}"#), 400, field: "asOf")
                #expect(try await client.get("/settings").text.contains(#"data-testid="sync-restore""#))
            }
            // Not linked: a conflict saying how to link, as the other sync operations say it.
            let unlinked = try await TestServer()
            try await unlinked.test { client in
                let answer = try await client.post("/api/v1/sync/restore", #"{"asOf": "2026-01-01T00:00:00Z"}"#)
                expectProblem(answer, 409, detail: "not linked to a sync server")
            }
        }
    }
}
