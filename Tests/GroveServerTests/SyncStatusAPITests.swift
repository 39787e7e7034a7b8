import Foundation
import GroveCore
import GroveStore
import GroveSync
import Testing

@testable import GroveServer

/// This device's sync through the API and on the Settings page, said as `grove sync status` says it:
/// unlinked, a new account waiting for its key, plain, encrypted end to end, and a server holding the
/// account's keys from before a change.
@Suite("Sync status through the API and the web")
struct SyncStatusAPITests {
    @Test func everyStateIsSaid() async throws {
        let server = try await TestServer()
        let database = server.database
        try await server.test { client in
            let unlinked = try await client.get("/api/v1/sync")
            #expect(unlinked.status == 200 && unlinked.object["linked"] as? Bool == false, "\(unlinked.text)")
            #expect(try await client.get("/settings").text.contains("This Grove syncs with no other device"))

            try database.sync.begin(
                SyncDevice(serverURL: "https://sync.example", user: "ada", deviceId: UUID(), deviceName: "laptop", tokenFile: "/dev/null"))
            try database.sync.awaitKey(true)
            let waiting = try await client.get("/api/v1/sync")
            #expect(waiting.object["encryption"] as? String == "awaiting-key", "\(waiting.text)")
            #expect(waiting.object["server"] as? String == "https://sync.example" && waiting.object["user"] as? String == "ada")
            #expect((waiting.object["pending"] as? Int ?? 0) > 0, "a linked store queues its rows: \(waiting.text)")
            #expect(try await client.get("/settings").text.contains("Not encrypted yet"))

            try database.sync.awaitKey(false)
            #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "plain")
            #expect(try await client.get("/settings").text.contains("operator can read what it keeps"))

            // Encrypted on another device since: not "plain" — locked, with the unlock form open.
            try database.sync.recordAttempt(error: AccountKeyError.locked.description)
            #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "locked")
            let locked = try await client.get("/settings").text
            #expect(locked.contains("Encrypted on another device") && !locked.contains("operator can read what it keeps"))
            #expect(locked.contains(#"data-testid="sync-unlock" open"#))
            try database.sync.recordAttempt(error: nil)

            try database.sync.noteHeldKey("b0f69fbd64dcf482")
            let sealed = try await client.get("/api/v1/sync")
            #expect(sealed.object["encryption"] as? String == "end-to-end" && sealed.object["keyId"] as? String == "b0f69fbd64dcf482")
            #expect(try await client.get("/settings").text.contains("Encrypted end to end with key <code>b0f69fbd64dcf482</code>"))
            let settings = try await client.get("/settings").text
            #expect(sealed.object["keysBehind"] == nil && !settings.contains("sync-keys-behind"))

            // The server restored from before a passphrase change: its keys are older than those seen.
            let seen = Date(timeIntervalSince1970: 1_790_000_000)
            #expect(try database.sync.noteServerKeys(keyId: "b0f69fbd64dcf482", keptAt: seen) == nil)
            #expect(try database.sync.noteServerKeys(keyId: "b0f69fbd64dcf482", keptAt: seen.addingTimeInterval(-3600)) == seen)
            let behindStatus = try await client.get("/api/v1/sync")
            #expect(behindStatus.object["keysBehind"] as? String == "2026-09-21T14:13:20.000Z", "\(behindStatus.text)")
            let behind = try await client.get("/settings").text
            #expect(behind.contains(#"data-testid="sync-keys-behind""#) && behind.contains("before 2026-09-21T14:13:20"), "\(behind)")
            #expect(behind.contains(#"data-testid="sync-passphrase" open"#))
            // Set again (a later envelope): said no more.
            #expect(try database.sync.noteServerKeys(keyId: "b0f69fbd64dcf482", keptAt: seen.addingTimeInterval(60)) == nil)
            #expect(try await client.get("/api/v1/sync").object["keysBehind"] == nil)

            // The key replaced on another device: this one holds the old key, and is asked to unlock once.
            #expect(try database.sync.noteServerKeys(keyId: "0123456789abcdef", keptAt: seen.addingTimeInterval(120)) == nil)
            #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "replaced")
            let replaced = try await client.get("/settings").text
            #expect(replaced.contains("key <code>0123456789abcdef</code> now; this Grove holds <code>b0f69fbd64dcf482</code>"))
            #expect(replaced.contains(#"data-testid="sync-unlock" open"#) && !replaced.contains(#"data-testid="sync-encrypt""#))
        }
    }
}
