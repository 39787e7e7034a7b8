import Foundation

/// One stored value as it travels: SQLite's storage classes, in JSON.
public enum SyncValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case text(String)

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        // Text first: most values are text, and each failed attempt builds an error.
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(String.self) {
            self = .text(value)
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? c.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? c.decode(Double.self), value.isFinite {
            self = .double(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "A field value must be null, a boolean, a finite number or a string")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let value): try c.encode(value)
        case .int(let value): try c.encode(value)
        case .double(let value): try c.encode(value)
        case .text(let value): try c.encode(value)
        }
    }

    public var int: Int64? {
        switch self {
        case .int(let value): value
        case .bool(let value): value ? 1 : 0
        case .double(let value) where value.rounded() == value && abs(value) < 9e15: Int64(value)
        default: nil
        }
    }

    public var text: String? { if case .text(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }

    /// A rough size in bytes, for the push size limit.
    public var approximateSize: Int {
        switch self {
        case .text(let value): value.utf8.count + 2
        default: 8
        }
    }
}

extension SyncValue: Comparable {
    /// A fixed order (null, booleans, numbers, text), for the rare tie between two values of one clock.
    public static func < (a: SyncValue, b: SyncValue) -> Bool {
        switch (a, b) {
        case (.null, .null): false
        case (.null, _): true
        case (_, .null): false
        case (.bool(let x), .bool(let y)): !x && y
        case (.bool, _): true
        case (_, .bool): false
        case (.int(let x), .int(let y)): x < y
        case (.int(let x), .double(let y)): Double(x) < y
        case (.double(let x), .int(let y)): x < Double(y)
        case (.double(let x), .double(let y)): x < y
        case (.int, .text), (.double, .text): true
        case (.text, .int), (.text, .double): false
        case (.text(let x), .text(let y)): x < y
        }
    }
}

/// The fields of one entity, by wire name.
public typealias SyncFields = [String: SyncValue]
