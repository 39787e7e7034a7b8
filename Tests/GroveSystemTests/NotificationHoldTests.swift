import Foundation
import Testing

@testable import GroveSystem

/// The hold against stand-ins for gsettings, makoctl and dunstctl (`Tests/Fixtures/desktop`), real
/// processes that keep their state in files: what is held is given back exactly, once, by whoever
/// looks next — including a process that never saw the hold begin.
@Suite("Notifications held while a tree grows")
struct NotificationHoldTests {
    static let fakes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/desktop").path

    /// A desktop in a folder of its own: its state files, its log, a store path beside them.
    struct Desktop {
        let folder: URL
        var environment: [String: String] {
            ["PATH": "\(NotificationHoldTests.fakes):/usr/bin:/bin", "GROVE_FAKE_DESKTOP": folder.path, "XDG_STATE_HOME": folder.path]
        }
        var store: String { folder.appendingPathComponent("grove.sqlite").path }
        /// Another store on the same desktop (a second `--database`).
        var otherStore: String { folder.appendingPathComponent("work.sqlite").path }
        /// Store files exist (a hold forgets stores that are gone).
        func makeStores() {
            for path in [store, otherStore] { FileManager.default.createFile(atPath: path, contents: Data()) }
        }
        func read(_ name: String) -> String {
            ((try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "").trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        func write(_ name: String, _ text: String) throws {
            try Data((text + "\n").utf8).write(to: folder.appendingPathComponent(name))
        }
        var log: [String] { read("log").split(separator: "\n").map(String.init) }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("grove-desktop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    @Test func everyDaemonIsQuietedAndGivenBackWhatItHad() throws {
        let desktop = try Desktop()
        let hold = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        hold.engage()
        #expect(hold.isHeld)
        #expect(desktop.read("banners") == "false")
        #expect(desktop.read("modes").split(separator: "\n") == ["default", "do-not-disturb"])
        #expect(desktop.read("paused") == "true")
        // Engaging again changes nothing and asks nothing.
        let asked = desktop.log.count
        hold.engage()
        #expect(desktop.log.count == asked)
        hold.release()
        #expect(!hold.isHeld)
        #expect(desktop.read("banners") == "true")
        #expect(desktop.read("modes") == "default")
        #expect(desktop.read("paused") == "false")
        // Released once: a second release touches nothing.
        let released = desktop.log.count
        hold.release()
        #expect(desktop.log.count == released)
    }

    @Test func aPersonsOwnQuietIsKeptAfterTheSession() throws {
        let desktop = try Desktop()
        try desktop.write("banners", "false")
        try desktop.write("modes", "default\ndo-not-disturb")
        try desktop.write("paused", "true")
        let hold = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        hold.engage()
        hold.release()
        #expect(desktop.read("banners") == "false")
        #expect(desktop.read("modes").split(separator: "\n") == ["default", "do-not-disturb"])
        #expect(desktop.read("paused") == "true")
    }

    @Test func aHoldOutlivesItsProcessAndTheNextLookEndsIt() throws {
        let desktop = try Desktop()
        NotificationHold(storePath: desktop.store, environment: desktop.environment).engage()
        // The process that held them is gone (a kill, a reboot): another, knowing nothing, gives them back.
        let later = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        #expect(later.isHeld)
        later.release()
        #expect(desktop.read("banners") == "true" && desktop.read("paused") == "false" && desktop.read("modes") == "default")
    }

    @Test func offWhenAskedAndNothingWithoutADaemon() throws {
        let desktop = try Desktop()
        var environment = desktop.environment
        environment["GROVE_HOLD_NOTIFICATIONS"] = "off"
        let off = NotificationHold(storePath: desktop.store, environment: environment)
        off.engage()
        #expect(!off.isHeld && desktop.log.isEmpty)
        // No daemon on the PATH: no file, nothing to give back.
        let bare = NotificationHold(storePath: desktop.store, environment: ["PATH": "/nonexistent"])
        bare.engage()
        #expect(!bare.isHeld)
    }

    @Test func twoStoresShareOneHoldAndTheLastToLetGoGivesBack() throws {
        let desktop = try Desktop()
        desktop.makeStores()
        let home = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        let work = NotificationHold(storePath: desktop.otherStore, environment: desktop.environment)
        home.engage()
        work.engage()
        #expect(home.isHeld && work.isHeld)
        home.release()
        #expect(!home.isHeld && work.isHeld)
        #expect(desktop.read("banners") == "false" && desktop.read("paused") == "true", "still held for the other store")
        work.release()
        #expect(desktop.read("banners") == "true" && desktop.read("paused") == "false" && desktop.read("modes") == "default")
        #expect(!FileManager.default.fileExists(atPath: home.marker))
    }

    /// A store deleted while it held (a test's folder, a store moved away) can never release: any
    /// other store's next look sees the hold owed and gives the settings back.
    @Test func aHolderWhoseStoreIsGoneOwesARelease() throws {
        let desktop = try Desktop()
        desktop.makeStores()
        let gone = NotificationHold(storePath: desktop.otherStore, environment: desktop.environment)
        gone.engage()
        try FileManager.default.removeItem(atPath: desktop.otherStore)
        let home = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        #expect(home.isHeld, "every holder is gone: a release is owed")
        home.release()
        #expect(desktop.read("banners") == "true" && desktop.read("paused") == "false" && desktop.read("modes") == "default")
        #expect(!home.isHeld && !FileManager.default.fileExists(atPath: home.marker))
    }
    @Test func aSettingThatFailsToComeBackIsKeptAndTriedAgain() throws {
        let desktop = try Desktop()
        desktop.makeStores()
        let hold = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        hold.engage()
        try desktop.write("fail-set", "")
        hold.release()
        // dunst and mako have theirs back; GNOME's banners are owed, and the record says so.
        #expect(desktop.read("banners") == "false" && desktop.read("paused") == "false")
        #expect(hold.isHeld)
        // A daemon that hangs is killed at the deadline, and the setting is still owed.
        try FileManager.default.removeItem(at: desktop.folder.appendingPathComponent("fail-set"))
        try desktop.write("hang-set", "")
        // Only this look gives the daemon a short deadline: it hangs, so it passes it whatever the load.
        NotificationHold(storePath: desktop.store, environment: desktop.environment, commandTimeout: 1).release()
        #expect(hold.isHeld && desktop.read("banners") == "false")
        // Once the daemon answers, the next look gives it back and the record goes.
        try FileManager.default.removeItem(at: desktop.folder.appendingPathComponent("hang-set"))
        NotificationHold(storePath: desktop.otherStore, environment: desktop.environment).release()
        #expect(desktop.read("banners") == "true")
        #expect(!hold.isHeld && !FileManager.default.fileExists(atPath: hold.marker))
    }

    @Test func aHoldFromAnOlderGroveBesideTheStoreIsGivenBack() throws {
        let desktop = try Desktop()
        try desktop.write("banners", "false")
        try Data(#"{"gnomeBanners":"true"}"#.utf8).write(to: URL(fileURLWithPath: desktop.store + ".notifications-held"))
        let hold = NotificationHold(storePath: desktop.store, environment: desktop.environment)
        #expect(hold.isHeld)
        hold.release()
        #expect(desktop.read("banners") == "true" && !hold.isHeld)
    }
}
