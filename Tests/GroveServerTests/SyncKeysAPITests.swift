import Foundation
import GroveCore
import GroveStore
import GroveSync
import GroveTestSupport
import Testing

@testable import GroveServer

/// The account's encryption from the web app (a phone has no `grove sync`): unlock with the
/// passphrase or the recovery code, change the passphrase, encrypt — through `grove serve`'s API,
/// against a real sync server on 127.0.0.1, with the same operations as the CLI.
@Suite("Sync encryption through the API", .timeLimit(.minutes(5)))
struct SyncKeysAPITests {
    static let passphrase = "a long and private passphrase"

    /// A device's store on disk (sync keeps its token and key beside it).
    static func store(_ name: String, in folder: String, environment: GroveEnvironment = .live) throws -> AppDatabase {
        try AppDatabase.open(path: "\(folder)/\(name).sqlite", environment: environment, concurrentReads: false)
    }

    /// A sync server with `users` (password `password1`) and the clock `now`, live on 127.0.0.1 for
    /// `body`, given its URL and a fresh folder for the devices' stores.
    static func withSyncServer(
        users: [String], now: @escaping @Sendable () -> Date = { Date() }, _ body: @Sendable (String, String) async throws -> Void
    ) async throws {
        try await withSyncService(users: users, now: now) { url, folder, _ in try await body(url, folder) }
    }

    /// `withSyncServer`, with the service itself too (what a test does to the server behind the devices).
    static func withSyncService(
        users: [String], now: @escaping @Sendable () -> Date = { Date() },
        _ body: @Sendable (String, String, SyncService) async throws -> Void
    ) async throws {
        // Every test of the run shares the machine's two cores: a device's request to this server may
        // wait past the usual 30 s (seen: CI's requests at 1.8 s each), never because it failed.
        setenv("GROVE_SYNC_TIMEOUT", "600", 1)
        let service = SyncService(store: try SQLiteSyncStore(path: nil), now: now, bcryptCost: 4)
        for user in users { _ = try await service.addUser(name: user, password: "password1") }
        let folder = NSTemporaryDirectory() + "grove-sync-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withLiveServer(buildSyncRouter(service: service)) { client in
            try await body("http://127.0.0.1:\(client.port)", folder, service)
        }
    }

    static func link(_ database: AppDatabase, _ url: String, user: String = "ada", name: String) async throws {
        _ = try await SyncConnection.login(database: database, url: url, user: user, password: "password1", deviceName: name, plain: true)
    }

    /// The laptop and the desktop linked to ada at `url`, the account encrypted on the laptop and
    /// unlocked on the desktop (each with its key file beside its store in `folder`).
    static func encryptedPair(_ url: String, _ folder: String) async throws -> (AppDatabase, AppDatabase, EncryptionSummary) {
        let laptop = try store("laptop", in: folder), desktop = try store("desktop", in: folder)
        try await link(laptop, url, name: "laptop")
        try await link(desktop, url, name: "desktop")
        let encrypted = try await SyncConnection(database: laptop).encrypt(passphrase: passphrase, logN: 14)
        _ = try await SyncConnection(database: desktop).unlock(passphrase: passphrase)
        return (laptop, desktop, encrypted)
    }

    @Test("a device unlocks an account encrypted elsewhere with its passphrase — a wrong one names the field and changes nothing")
    func unlockThroughTheAPI() async throws {
        try await Self.withSyncServer(users: ["ada"]) { url, folder in
            let laptop = try Self.store("laptop", in: folder), phoneGrove = try Self.store("desktop", in: folder)
            try await Self.link(laptop, url, name: "laptop")
            try await Self.link(phoneGrove, url, name: "desktop")
            // The desktop synced in plain before: the laptop's encryption seals all it sent.
            var plainSync = try SyncConnection(database: phoneGrove).engine()
            _ = try await plainSync.sync()
            _ = try laptop.timers.create(name: "Planted on the laptop", durationInSeconds: 1500)
            let encrypted = try await SyncConnection(database: laptop).encrypt(passphrase: Self.passphrase, logN: 14)

            let server = try await TestServer(database: phoneGrove)
            try await server.test { client in
                let wrong = try await client.post("/api/v1/sync/unlock", #"{"passphrase": "not the passphrase at all"}"#)
                expectProblem(wrong, 422, field: "passphrase", detail: "does not open this account's key")
                #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "plain")
                #expect(DeviceKey.read(forStore: "\(folder)/desktop.sqlite") == nil, "a wrong passphrase keeps no key")

                let unlocked = try await client.post("/api/v1/sync/unlock", #"{"passphrase": "\#(Self.passphrase)"}"#)
                #expect(unlocked.status == 200, "\(unlocked.text)")
                #expect(unlocked.object["keyId"] as? String == encrypted.key.keyId)
                #expect(unlocked.object["syncError"] == nil, "\(unlocked.text)")
                #expect((unlocked.object["applied"] as? Int ?? 0) >= 1, "the sync that follows brings the laptop's timer: \(unlocked.text)")
                #expect(unlocked.object["sent"] as? Int == 0, "the server keeps nothing in plain: nothing is sent again \(unlocked.text)")
                #expect(try phoneGrove.timers.all().map(\.name).contains("Planted on the laptop"))
                let status = try await client.get("/api/v1/sync")
                #expect(status.object["encryption"] as? String == "end-to-end" && status.object["keyId"] as? String == encrypted.key.keyId)
                #expect(try await client.get("/settings").text.contains("Change the passphrase"))

                // Unlocked already: said as a conflict, by the same words as the CLI.
                let again = try await client.post("/api/v1/sync/encrypt", #"{"passphrase": "\#(Self.passphrase)"}"#)
                expectProblem(again, 409, detail: "encrypted already, with the key this device holds")
            }
        }
    }

    @Test("a passphrase changed from the web opens the key everywhere; the old one no longer does, and the other device keeps syncing")
    func changeThroughTheAPI() async throws {
        try await Self.withSyncServer(users: ["ada"]) { url, folder in
            let (laptop, desktop, _) = try await Self.encryptedPair(url, folder)

            let server = try await TestServer(database: desktop)
            try await server.test { client in
                let wrong = try await client.post(
                    "/api/v1/sync/passphrase",
                    #"{"currentPassphrase": "a wrong guess at it", "newPassphrase": "a newer private passphrase"}"#)
                expectProblem(wrong, 422, field: "currentPassphrase")
                let weak = try await client.post(
                    "/api/v1/sync/passphrase", #"{"currentPassphrase": "\#(Self.passphrase)", "newPassphrase": "short"}"#)
                expectProblem(weak, 422, field: "newPassphrase", detail: "at least")
                let changed = try await client.post(
                    "/api/v1/sync/passphrase",
                    #"{"currentPassphrase": "\#(Self.passphrase)", "newPassphrase": "a newer private passphrase"}"#)
                #expect(changed.status == 200, "\(changed.text)")
            }
            let envelope = try #require(try await SyncConnection(database: laptop).transport().keys())
            #expect(throws: AccountKeyError.wrongPassphrase) { _ = try AccountKeys.unlock(envelope, passphrase: Self.passphrase) }
            #expect(try AccountKeys.unlock(envelope, passphrase: "a newer private passphrase").keyId == envelope.keyId)
            // The laptop holds the key and its token: it syncs on without being asked anything.
            _ = try laptop.timers.create(name: "After the change", durationInSeconds: 600)
            var engine = try SyncConnection(database: laptop).engine()
            #expect(try await engine.sync().pushed >= 1)
        }
    }

    @Test("a new key from the web: the old one seals nothing, the other device says so and unlocks once from its own web app")
    func newKeyThroughTheAPI() async throws {
        try await Self.withSyncServer(users: ["ada"]) { url, folder in
            let (laptop, desktop, encrypted) = try await Self.encryptedPair(url, folder)
            let before = try laptop.timers.create(name: "Sealed under the first key", durationInSeconds: 600)
            var laptopSync = try SyncConnection(database: laptop).engine()
            _ = try await laptopSync.sync()
            let replaced = try await TestServer(database: desktop).testReturning { client in
                let wrong = try await client.post("/api/v1/sync/new-key", #"{"passphrase": "not the passphrase at all"}"#)
                expectProblem(wrong, 422, field: "passphrase")
                let made = try await client.post("/api/v1/sync/new-key", #"{"passphrase": "\#(Self.passphrase)"}"#)
                #expect(made.status == 200 && made.object["replaced"] as? String == encrypted.key.keyId, "\(made.text)")
                #expect((made.object["recoveryCode"] as? String)?.split(separator: " ").count == 17)
                return made.object["keyId"] as? String ?? ""
            }
            #expect(replaced != encrypted.key.keyId && DeviceKey.read(forStore: "\(folder)/desktop.sqlite")?.keyId == replaced)
            // The laptop made something meanwhile: it stops before sending it, and its web app says why.
            let meanwhile = try laptop.timers.create(name: "Made meanwhile", durationInSeconds: 600)
            laptopSync = try SyncConnection(database: laptop).engine()
            await #expect(throws: AccountKeyError.otherKey(held: encrypted.key.keyId, named: replaced)) { _ = try await laptopSync.sync() }
            try await TestServer(database: laptop).test { client in
                #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "replaced")
                let unlocked = try await client.post("/api/v1/sync/unlock", #"{"passphrase": "\#(Self.passphrase)"}"#)
                #expect(unlocked.status == 200 && unlocked.object["keyId"] as? String == replaced, "\(unlocked.text)")
                #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "end-to-end")
            }
            var desktopSync = try SyncConnection(database: desktop).engine()
            _ = try await desktopSync.sync()
            let names = Set(try desktop.timers.all().map(\.id))
            #expect(names.isSuperset(of: [before.id, meanwhile.id]))
        }
    }

    @Test("a server back at a replaced key: no device takes it back, the web app says so and a new key from it replaces it again")
    func serverBackAtAReplacedKey() async throws {
        try await Self.withSyncService(users: ["ada"]) { url, folder, service in
            let (laptop, desktop, encrypted) = try await Self.encryptedPair(url, folder)
            let user = try #require(try await service.store.user(named: "ada"))
            let (first, before) = try #require(try await service.store.keyEnvelope(userId: user.id))
            let second = try await SyncConnection(database: desktop).replaceKey(passphrase: Self.passphrase).key
            #expect(try await SyncConnection(database: laptop).unlock(passphrase: Self.passphrase) == second)
            // The server's keys and login go back to a backup from before the new key (the lost device's key).
            #expect(
                try await service.store.setKeyEnvelope(
                    userId: user.id, keyId: first, envelope: before, expected: second.keyId, passwordHash: user.passwordHash) == first)
            await #expect(throws: AccountKeyError.retiredKeyOnServer(named: encrypted.key.keyId)) {
                _ = try await SyncConnection(database: laptop).unlock(passphrase: Self.passphrase)
            }
            #expect(DeviceKey.read(forStore: "\(folder)/laptop.sqlite") == second, "the replaced key is not taken back")
            _ = try desktop.timers.create(name: "Made after the restore", durationInSeconds: 600)
            var desktopSync = try SyncConnection(database: desktop).engine()
            await #expect(throws: AccountKeyError.retiredKeyOnServer(named: first)) { _ = try await desktopSync.sync() }
            let third = try await TestServer(database: desktop).testReturning { client in
                #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "server-behind")
                let settings = try await client.get("/settings").text
                #expect(settings.contains(#"data-testid="sync-new-key" open"#) && !settings.contains(#"data-testid="sync-unlock""#))
                let made = try await client.post("/api/v1/sync/new-key", #"{"passphrase": "\#(Self.passphrase)"}"#)
                #expect(made.status == 200 && made.object["replaced"] as? String == second.keyId, "\(made.text)")
                #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "end-to-end")
                return made.object["keyId"] as? String ?? ""
            }
            let envelope = try #require(try await SyncConnection(database: laptop).transport().keys())
            #expect(envelope.keyId == third && envelope.retiredKeyIds == [first, second.keyId])
            desktopSync = try SyncConnection(database: desktop).engine()
            _ = try await desktopSync.sync()
            #expect(try await SyncConnection(database: laptop).unlock(passphrase: Self.passphrase).keyId == third)
            var laptopSync = try SyncConnection(database: laptop).engine()
            _ = try await laptopSync.sync()
            #expect(try laptop.timers.all().contains { $0.name == "Made after the restore" })
        }
    }

    @Test("a new recovery code from the web: the old one opens nothing, the new one and the passphrase do, and nothing is sent")
    func newRecoveryCodeThroughTheAPI() async throws {
        try await Self.withSyncServer(users: ["ada"]) { url, folder in
            let (laptop, desktop, encrypted) = try await Self.encryptedPair(url, folder)
            let server = try await TestServer(database: desktop)
            let fresh = try await server.testReturning { client in
                let wrong = try await client.post("/api/v1/sync/recovery-code", #"{"passphrase": "not the passphrase at all"}"#)
                expectProblem(wrong, 422, field: "passphrase")
                let made = try await client.post("/api/v1/sync/recovery-code", #"{"passphrase": "\#(Self.passphrase)"}"#)
                #expect(made.status == 200 && made.object["keyId"] as? String == encrypted.key.keyId, "\(made.text)")
                #expect(try await client.get("/settings").text.contains("A new recovery code"))
                return made.object["recoveryCode"] as? String ?? ""
            }
            let code = try RecoveryCode(words: fresh)
            #expect(code != encrypted.recovery)
            let envelope = try #require(try await SyncConnection(database: laptop).transport().keys())
            #expect(throws: AccountKeyError.wrongRecoveryCode) { _ = try AccountKeys.unlock(envelope, recovery: encrypted.recovery) }
            #expect(try AccountKeys.unlock(envelope, recovery: code) == encrypted.key)
            #expect(try AccountKeys.unlock(envelope, passphrase: Self.passphrase) == encrypted.key)
            // The laptop was asked nothing: it syncs on with its key and token.
            _ = try laptop.timers.create(name: "After the new code", durationInSeconds: 600)
            var engine = try SyncConnection(database: laptop).engine()
            #expect(try await engine.sync().pushed >= 1)
        }
    }

    @Test("a forgotten passphrase: the recovery code shown by an encryption made on the web unlocks another device with a new one")
    func encryptAndRecoverThroughTheAPI() async throws {
        try await Self.withSyncServer(users: ["bob"]) { url, folder in
            let desktop = try Self.store("desktop", in: folder), laptop = try Self.store("laptop", in: folder)
            try await Self.link(desktop, url, user: "bob", name: "desktop")
            try await Self.link(laptop, url, user: "bob", name: "laptop")
            _ = try desktop.timers.create(name: "Sealed from the web", durationInSeconds: 900)
            let server = try await TestServer(database: desktop)
            let recovery = try await server.testReturning { client in
                expectProblem(try await client.post("/api/v1/sync/encrypt", #"{"passphrase": "short"}"#), 422, field: "passphrase")
                #expect(
                    try await client.get("/api/v1/sync").object["encryption"] as? String == "plain", "a refused encryption changes nothing")
                let done = try await client.post("/api/v1/sync/encrypt", #"{"passphrase": "\#(Self.passphrase)"}"#)
                #expect(done.status == 200, "\(done.text)")
                #expect((done.object["sent"] as? Int ?? 0) >= 1)
                #expect(try await client.get("/api/v1/sync").object["encryption"] as? String == "end-to-end")
                return done.object["recoveryCode"] as? String ?? ""
            }
            #expect(recovery.split(separator: " ").count == 17)
            let laptopServer = try await TestServer(database: laptop)
            try await laptopServer.test { client in
                let halfway = try await client.post("/api/v1/sync/unlock", #"{"recoveryCode": "\#(recovery)"}"#)
                expectProblem(halfway, 422, field: "newPassphrase")
                let mistyped = recovery.split(separator: " ").dropFirst().joined(separator: " ") + " abandon"
                let wrong = try await client.post(
                    "/api/v1/sync/unlock", #"{"recoveryCode": "\#(mistyped)", "newPassphrase": "a brand new passphrase"}"#)
                expectProblem(wrong, 422, field: "recoveryCode")
                let unlocked = try await client.post(
                    "/api/v1/sync/unlock", #"{"recoveryCode": "\#(recovery)", "newPassphrase": "a brand new passphrase"}"#)
                #expect(unlocked.status == 200, "\(unlocked.text)")
                #expect(try laptop.timers.all().map(\.name).contains("Sealed from the web"))
            }
            let envelope = try #require(try await SyncConnection(database: laptop).transport().keys())
            #expect(try AccountKeys.unlock(envelope, passphrase: "a brand new passphrase").keyId == envelope.keyId)
        }
    }

    @Test("wrong passphrases are throttled: past a few, even the right one waits (429 with Retry-After) and nothing is tried")
    func guessesAreThrottled() async throws {
        try await Self.withSyncServer(users: ["ada"]) { url, folder in
            // The throttle reads the desktop store's clock: held still, so that a loaded machine taking
            // longer than the first wait (1 s) between the fifth guess and the sixth cannot let it through.
            var still = GroveEnvironment.live
            let instant = Date().groveRoundedToMillis
            still.now = { instant }
            let laptop = try Self.store("laptop", in: folder), desktop = try Self.store("desktop", in: folder, environment: still)
            try await Self.link(laptop, url, name: "laptop")
            try await Self.link(desktop, url, name: "desktop")
            _ = try await SyncConnection(database: laptop).encrypt(passphrase: Self.passphrase, logN: 14)
            let server = try await TestServer(database: desktop)
            try await server.test { client in
                for guess in 1...5 {
                    expectProblem(try await client.post("/api/v1/sync/unlock", #"{"passphrase": "wrong guess number \#(guess)"}"#), 422)
                }
                let refused = try await client.post("/api/v1/sync/unlock", #"{"passphrase": "\#(Self.passphrase)"}"#)
                expectProblem(refused, 429)
                #expect(DeviceKey.read(forStore: "\(folder)/desktop.sqlite") == nil)
            }
        }
    }

    @Test("not linked, or asked nonsense: a problem naming the field, nothing tried")
    func refusals() async throws {
        let server = try await TestServer()
        try await server.test { client in
            expectProblem(
                try await client.post("/api/v1/sync/encrypt", #"{"passphrase": "a long and private passphrase"}"#), 409,
                detail: "not linked")
            expectProblem(try await client.post("/api/v1/sync/unlock", #"{"passphrase": "a long and private passphrase"}"#), 409)
            expectProblem(try await client.post("/api/v1/sync/unlock", #"{}"#), 422, field: "passphrase")
            expectProblem(try await client.post("/api/v1/sync/unlock", #"{"passphrase": ""}"#), 422, field: "passphrase")
            expectProblem(
                try await client.post("/api/v1/sync/unlock", #"{"recoveryCode": "one two", "newPassphrase": "a brand new passphrase"}"#),
                422,
                field: "recoveryCode", detail: "17 words")
            expectProblem(try await client.post("/api/v1/sync/encrypt", #"{"passphrase": 7}"#), 400, field: "passphrase")
            expectProblem(try await client.post("/api/v1/sync/passphrase", #"{"newPassphrase": "x"}"#), 400, field: "currentPassphrase")
        }
    }
}
