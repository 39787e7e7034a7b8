import Foundation

/// A content pack: what a content source serves over HTTP(S) (seed 003's read-only Firebase
/// collection, without the vendor). Grove's README documents the format.
///
/// A pack is read whole before anything is applied: a pack that is not a pack (not JSON, the wrong
/// shape, a format version Grove does not know, nothing usable in it) is refused whole, and the
/// previous one stays. Inside a good pack, an item that breaks one of the seed's rules is skipped
/// with the reason, and the rest apply.
public struct ContentPack: Sendable, Equatable {
    /// An item left out of a pack, and why.
    public struct Skipped: Sendable, Equatable, Codable {
        /// Position in the pack's `items`, from 0.
        public var index: Int
        /// The item's id, when it had a readable one.
        public var id: String?
        /// The rule it broke, naming the field.
        public var reason: String

        /// Long ids and reasons are cut: a pack is someone else's text, and a report is read by a person.
        public init(index: Int, id: String?, reason: String) {
            self.index = index
            self.id = id.map { $0.count > 100 ? String($0.prefix(100)) + "…" : $0 }
            self.reason = reason.count > 300 ? String(reason.prefix(300)) + "…" : reason
        }

        /// "item 3 (q-1): text: …", for logs and terminals.
        public var description: String { "item \(index)\(id.map { " (\($0))" } ?? ""): \(reason)" }
    }

    /// The pack format this Grove reads (`"format": 1`; a pack without the key is read as 1).
    public static let format = 1
    /// Larger bodies are refused before parsing: a pack is text for a pause, not a download.
    public static let maxBytes = 4 << 20
    /// More items than this is not a pack a person curates.
    public static let maxItems = 5_000

    /// The pack's own name, if it gives one.
    public var name: String?
    /// The items that passed every rule, text trimmed, in the pack's order.
    public var items: [MindfulnessContent]
    /// The items that did not.
    public var skipped: [Skipped]

    public init(name: String? = nil, items: [MindfulnessContent], skipped: [Skipped] = []) {
        self.name = name
        self.items = items
        self.skipped = skipped
    }

    /// Reads a pack: `{"format": 1, "name": "…", "items": [ … ]}`, or a bare array of items (the form
    /// `grove content import` has always read).
    public static func parse(_ data: Data) throws(ContentPackError) -> ContentPack {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count) }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch let error as ContentPackError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw .notJSON(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription)
        } catch {
            throw .notAPack
        }
        guard envelope.items.count <= maxItems else { throw .tooManyItems(envelope.items.count) }
        var pack = ContentPack(name: envelope.name, items: [])
        var seen = Set<String>()
        for (index, entry) in envelope.items.enumerated() {
            switch entry.item {
            case .failure(let reason):
                pack.skipped.append(Skipped(index: index, id: entry.id, reason: reason))
            case .success(var item):
                item.text = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
                do {
                    try item.validate()
                } catch {
                    pack.skipped.append(Skipped(index: index, id: item.id, reason: "\(error.field): \(error.message)"))
                    continue
                }
                guard seen.insert(item.id).inserted else {
                    pack.skipped.append(Skipped(index: index, id: item.id, reason: "id: an earlier item has the same id"))
                    continue
                }
                pack.items.append(item)
            }
        }
        guard !pack.items.isEmpty else { throw .noUsableItems(skipped: pack.skipped) }
        return pack
    }

    /// The top level: an object with `items`, or an array.
    private struct Envelope: Decodable {
        var name: String?
        var items: [Entry]

        private enum Keys: String, CodingKey { case format, name, items }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Keys.self) {
                let format = try? object.decodeIfPresent(Int.self, forKey: .format)
                if object.contains(.format), format == nil { throw ContentPackError.unsupportedFormat(nil) }
                if let format, format != ContentPack.format { throw ContentPackError.unsupportedFormat(format) }
                guard object.contains(.items), let items = try? object.decode([Entry].self, forKey: .items) else {
                    throw ContentPackError.notAPack
                }
                self.name = try? object.decodeIfPresent(String.self, forKey: .name)
                self.items = items
            } else {
                self.items = try decoder.singleValueContainer().decode([Entry].self)
            }
        }
    }

    /// One element of `items`, read on its own so that a bad one does not spoil the array.
    private struct Entry: Decodable {
        var id: String?
        var item: Outcome

        enum Outcome { case success(MindfulnessContent), failure(String) }

        private enum Keys: String, CodingKey { case id, type, text, category, author, length, priority }

        init(from decoder: any Decoder) {
            let object: KeyedDecodingContainer<Keys>
            do {
                object = try decoder.container(keyedBy: Keys.self)
            } catch {
                id = nil
                item = .failure("an item must be an object with id, type, text and category")
                return
            }
            id = try? object.decode(String.self, forKey: .id)
            do {
                // Only what a pack may say: counters and "bundled" are this device's, whatever a pack claims.
                let type = try Self.choice(MindfulnessContent.ContentType.self, object, .type)
                let category = try Self.choice(MindfulnessContent.ContentCategory.self, object, .category)
                item = .success(
                    MindfulnessContent(
                        id: try Self.value(String.self, object, .id, "a string"), type: type,
                        text: try Self.value(String.self, object, .text, "a string"), category: category,
                        author: try Self.optional(String.self, object, .author, "a string"),
                        length: try Self.optional(Int.self, object, .length, "a whole number of seconds"),
                        priority: try Self.optional(Int.self, object, .priority, "a whole number") ?? MindfulnessContent.defaultPriority))
            } catch {
                item = .failure(error.reason)
            }
        }

        struct Refusal: Error { var reason: String }

        private static func value<T: Decodable>(_ type: T.Type, _ object: KeyedDecodingContainer<Keys>, _ key: Keys, _ what: String)
            throws(Refusal) -> T
        {
            guard object.contains(key) else { throw Refusal(reason: "\(key.rawValue): missing") }
            guard let value = try? object.decode(T.self, forKey: key) else { throw Refusal(reason: "\(key.rawValue): must be \(what)") }
            return value
        }

        private static func optional<T: Decodable>(_ type: T.Type, _ object: KeyedDecodingContainer<Keys>, _ key: Keys, _ what: String)
            throws(Refusal) -> T?
        {
            guard object.contains(key), (try? object.decodeNil(forKey: key)) != true else { return nil }
            return try value(T.self, object, key, what)
        }

        private static func choice<T: RawRepresentable & CaseIterable & Decodable>(
            _ type: T.Type, _ object: KeyedDecodingContainer<Keys>, _ key: Keys
        ) throws(Refusal) -> T
        where T.RawValue == String {
            let raw = try value(String.self, object, key, "a string")
            guard let value = T(rawValue: raw) else {
                throw Refusal(
                    reason:
                        "\(key.rawValue): must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")) (got \(raw.quotedForMessage))"
                )
            }
            return value
        }
    }
}

/// Why a whole content pack was refused (the previous pack, if any, stays in use).
public enum ContentPackError: Error, Equatable, Sendable {
    /// The body is not JSON.
    case notJSON(String)
    /// JSON, but neither an array of items nor an object with an `items` array.
    case notAPack
    /// A `format` this Grove does not read (nil: not a number).
    case unsupportedFormat(Int?)
    /// Larger than `ContentPack.maxBytes`.
    case tooLarge(bytes: Int)
    /// More than `ContentPack.maxItems` items.
    case tooManyItems(Int)
    /// Not one item passed the rules (an empty pack included): applying it would empty the source.
    case noUsableItems(skipped: [ContentPack.Skipped])

    /// One sentence for a terminal, a page or the source's `lastError`.
    public var message: String {
        switch self {
        case .notJSON(let detail): "The pack is not JSON (\(detail))"
        case .notAPack: "The pack must be a JSON array of items or an object with an \"items\" array"
        case .unsupportedFormat(let format):
            "The pack's format \(format.map(String.init) ?? "(not a number)") is not one this Grove reads (it reads format \(ContentPack.format))"
        case .tooLarge(let bytes): "The pack is larger than \(ContentPack.maxBytes >> 20) MiB (\(bytes) bytes)"
        case .tooManyItems(let n): "The pack has more than \(ContentPack.maxItems) items (\(n))"
        case .noUsableItems(let skipped):
            skipped.isEmpty
                ? "The pack has no items"
                : "None of the pack's \(skipped.count) items can be used; first: \(skipped[0].description)"
        }
    }
}
