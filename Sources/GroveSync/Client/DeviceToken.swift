import Foundation

/// The device's token on disk: a 0600 file beside the store (`grove.sqlite.sync-token`), never in the
/// database, so that a copied database file does not carry the right to sync as this device.
public enum DeviceToken {
    /// Where the token of the store at `storePath` lives.
    public static func path(forStore storePath: String) -> String { storePath + ".sync-token" }

    public static func read(forStore storePath: String) -> String? {
        let path = path(forStore: storePath)
        guard let data = FileManager.default.contents(atPath: path), data.count < 1024 else { return nil }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    /// Writes the token readable by its owner only (created 0600, then renamed into place).
    public static func write(_ token: String, forStore storePath: String) throws {
        let path = path(forStore: storePath)
        let temporary = path + ".tmp"
        FileManager.default.createFile(atPath: temporary, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }

    public static func remove(forStore storePath: String) {
        try? FileManager.default.removeItem(atPath: path(forStore: storePath))
    }
}
