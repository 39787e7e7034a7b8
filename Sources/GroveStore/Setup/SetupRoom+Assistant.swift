import Foundation
import GRDB
import GroveCore

/// The language model `grove assistant set` chose, kept with this device's data (`grove_meta`, not
/// synced: a local model server is where you are). The key itself stays in its file: only the file's
/// path is stored, read each time the model is asked.
public struct StoredAssistant: Codable, Sendable, Equatable {
    /// An OpenAI-compatible API base, e.g. `http://127.0.0.1:11434/v1`.
    public var url: String
    public var model: String
    /// A file holding the API key, for services that want one.
    public var apiKeyFile: String?

    public init(url: String, model: String, apiKeyFile: String? = nil) {
        self.url = url
        self.model = model
        self.apiKeyFile = apiKeyFile
    }

    /// The one rule for a model's address, wherever it comes from (`field` names where: `url`,
    /// `GROVE_ASSISTANT_URL`): an http(s) URL with a host.
    public static func checkURL(_ url: String, field: String) throws {
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
            components.host?.isEmpty == false
        else {
            throw InvalidField(field, "\(field) must be an http(s) URL such as http://127.0.0.1:11434/v1 (got \(url.quotedForMessage))")
        }
    }

    /// Checks what a person typed: an http(s) URL with a host, a model name, a readable key file.
    public func validate() throws {
        try Self.checkURL(url, field: "url")
        guard !model.trimmingCharacters(in: .whitespaces).isEmpty, model.count <= 200, !model.contains("\u{0}") else {
            throw InvalidField("model", "model must name the model to ask (e.g. llama3.2), at most 200 characters")
        }
        var isDirectory: ObjCBool = false
        if let apiKeyFile,
            !FileManager.default.isReadableFile(atPath: apiKeyFile)
                || !FileManager.default.fileExists(atPath: apiKeyFile, isDirectory: &isDirectory) || isDirectory.boolValue
        {
            throw InvalidField("api-key-file", "api-key-file must be a readable file (got \(apiKeyFile.quotedForMessage))")
        }
    }
}

extension AppDatabase {
    static let assistantKey = "assistant"

}

extension SetupRoom {
    /// The stored model, or nil (the offline assistant, unless `GROVE_ASSISTANT_URL` says otherwise).
    public func assistant() throws -> StoredAssistant? {
        try writer.snapshotRead { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM grove_meta WHERE key = ?"), arguments: [AppDatabase.assistantKey])
        }.flatMap { try? JSONDecoder().decode(StoredAssistant.self, from: Data($0.utf8)) }
    }

    /// Keeps `assistant` (validated) as the model every face asks; nil forgets it.
    public func setAssistant(_ assistant: StoredAssistant?) throws {
        guard let assistant else {
            return try write { db in try db.cachedExecute("DELETE FROM grove_meta WHERE key = ?", [AppDatabase.assistantKey]) }
        }
        try assistant.validate()
        let json = String(decoding: try JSONEncoder().encode(assistant), as: UTF8.self)
        try write { db in
            try db.cachedExecute("INSERT OR REPLACE INTO grove_meta (key, value) VALUES (?, ?)", [AppDatabase.assistantKey, json])
        }
    }
}
