import Foundation
import Testing

@testable import GroveCLI
@testable import GroveStore

/// A command in a process that exits right after it closes its stores and never releases them.
@Suite("Stores at exit")
struct StoresAtExitTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "grove-at-exit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a store opened inside is closed (its WAL folded in) and kept, not released")
    func closedAndKept() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/grove.sqlite"
        weak var writer: AnyObject?
        try StoresAtExit.closingAtExit {
            let store = try GlobalOptions.open(database: path)
            writer = store.writer as AnyObject
            _ = try store.focus.status()
        }
        // Kept: releasing it would dispose of its queue in the exiting process. Closed: the last
        // connection's close folds the WAL into the file and removes it. (A closed GRDB queue must
        // not be used again, so the test only looks.)
        #expect(writer != nil)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a store opened outside is released as usual (the case it exists for)")
    func releasedOutside() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        weak var writer: AnyObject?
        do {
            let store = try GlobalOptions.open(database: folder + "/grove.sqlite")
            writer = store.writer as AnyObject
            _ = try store.focus.status()
        }
        #expect(writer == nil)
    }
}
