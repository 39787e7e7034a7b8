import Foundation

/// The account's data key on this device: a 0600 file beside the store (`grove.sqlite.sync-key`),
/// like the token and for the same reason — a copied database file carries neither.
public enum DeviceKey {
    public static func path(forStore storePath: String) -> String { storePath + ".sync-key" }

    /// The key, or nil when this device holds none (a plain account, or one not unlocked here yet).
    /// Its first line is the key; each line after it a key it replaced, newest first.
    public static func read(forStore storePath: String) -> DataKey? {
        guard let data = FileManager.default.contents(atPath: path(forStore: storePath)), data.count < 16_384 else { return nil }
        let keys = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map {
            Data(base64Encoded: $0.trimmingCharacters(in: .whitespaces)).flatMap(DataKey.init(raw:))
        }
        guard var key = keys.first ?? nil else { return nil }
        key.retired = keys.dropFirst().compactMap { $0 }
        return key
    }

    /// Writes the key readable by its owner only (created 0600, then renamed into place).
    public static func write(_ key: DataKey, forStore storePath: String) throws {
        let path = path(forStore: storePath), temporary = path + ".tmp"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(([key] + key.retired).map { $0.raw.base64EncodedString() + "\n" }.joined().utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }

    public static func remove(forStore storePath: String) {
        try? FileManager.default.removeItem(atPath: path(forStore: storePath))
    }
}
