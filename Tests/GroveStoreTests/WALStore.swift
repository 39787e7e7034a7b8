import Foundation
import GRDB

/// A WAL-mode store in a folder of its own, with one table (`note`), and a connection that writes it.
struct WALStore {
    let folder: URL
    let path: String
    let writer: DatabaseQueue

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("grove-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("grove.sqlite").path
        writer = try DatabaseQueue(path: path)
        try writer.inDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE note (body BLOB NOT NULL)")
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
