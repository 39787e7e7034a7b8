import Foundation

/// Reads JSON from a byte source a chunk at a time: a document of any size is walked holding one
/// chunk and the value being read. Grove's import uses it to take a million sessions one by one;
/// everything small (preferences, timers, themes) is captured whole and handed to `JSONDecoder`.
struct JSONStreamReader: ~Copyable {
    private var buffer: [UInt8] = []
    private var position = 0
    /// Bytes dropped from the front of `buffer` so far (for offsets in messages).
    private var consumed = 0
    private var atEnd = false
    private let read: () throws -> [UInt8]?
    /// The deepest nesting accepted: deeper documents are refused rather than overflowing the stack.
    static let maxDepth = 64
    /// The largest single value `captureValue` returns.
    static let maxCapture = 256 << 20
    /// The longest string any field may hold (its bytes, as written): no text Grove keeps comes near,
    /// and a longer one is refused by name as it streams past, never held whole.
    static let maxString = 1 << 20
    static let tooLong = "a text longer than 1 MiB (the most any field holds)"

    /// `read` returns the next chunk, or nil (or an empty chunk) at the end.
    init(read: @escaping () throws -> [UInt8]?) {
        self.read = read
    }

    var offset: Int { consumed + position }

    func failure(_ message: String) -> Failure { Failure(message: message, offset: offset) }

    // MARK: Bytes

    /// Makes sure a byte is available at `position`; false at the end of the document.
    @inline(__always)
    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        return try refill()
    }

    private mutating func refill() throws -> Bool {
        while position >= buffer.count {
            if atEnd { return false }
            consumed += buffer.count
            buffer.removeAll(keepingCapacity: true)
            position = 0
            guard let chunk = try read(), !chunk.isEmpty else {
                atEnd = true
                return false
            }
            // A byte-order mark before the document (Windows editors write one) is not JSON: skipped.
            if consumed == 0, chunk.starts(with: [0xEF, 0xBB, 0xBF]) {
                buffer.append(contentsOf: chunk.dropFirst(3))
                consumed = 3
                continue
            }
            buffer.append(contentsOf: chunk)
        }
        return true
    }

    /// The next byte that is not white space, without taking it; nil at the end.
    mutating func peek() throws -> UInt8? {
        while try fill() {
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return buffer[position]
            }
        }
        return nil
    }

    /// Takes `byte` (after white space) or fails naming what was expected.
    mutating func expect(_ byte: UInt8) throws {
        guard try peek() == byte else { throw failure("expected '\(Character(UnicodeScalar(byte)))'") }
        position += 1
    }

    /// Takes `byte` if it comes next.
    mutating func take(_ byte: UInt8) throws -> Bool {
        guard try peek() == byte else { return false }
        position += 1
        return true
    }

    @inline(__always)
    private mutating func next() throws -> UInt8 {
        guard try fill() else { throw failure("unexpected end of the document") }
        defer { position += 1 }
        return buffer[position]
    }

    // MARK: Values

    /// A string (after white space).
    mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        // Most strings (keys, instants, ids) lie whole in the chunk, without an escape: made straight
        // from it. Anything else — an escape, a control character, the chunk's end — reads byte by
        // byte from the start below, with its messages and offsets.
        var end = position
        var ascii = true
        while end < buffer.count, end - position <= Self.maxString {
            let byte = buffer[end]
            if byte == UInt8(ascii: "\"") {
                let start = position
                position = end + 1
                // ASCII (ids, instants, keys: nearly every string) needs no validation, and
                // `String(validating:as:)` is unspecialized: its generic metadata lookups cost a
                // third of the reading thread's time on a million sessions.
                let text = buffer.withUnsafeBufferPointer {
                    let bytes = UnsafeBufferPointer(rebasing: $0[start..<end])
                    return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
                }
                guard let text else { throw failure("a string that is not UTF-8 text") }
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            ascii = ascii && byte < 0x80
            end += 1
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        while true {
            let byte = try next()
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("a string that is not UTF-8 text") }
                return text
            case UInt8(ascii: "\\"): try escape(into: &bytes)
            case ..<0x20: throw failure("a control character inside a string")
            default: bytes.append(byte)
            }
            guard bytes.count <= Self.maxString else { throw failure(Self.tooLong) }
        }
    }

    private mutating func escape(into bytes: inout [UInt8]) throws {
        let byte = try next()
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A surrogate pair: the low half must follow.
                guard try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") else { throw failure("a lone surrogate") }
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = UnicodeScalar(scalar) else { throw failure("an invalid \\u escape") }
            bytes.append(contentsOf: String(Character(unicode)).utf8)
        default: throw failure("an invalid escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try next()
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("an invalid \\u escape")
            }
            value = value << 4 | digit
        }
        return value
    }

    /// A number (after white space), as JSON writes it.
    private mutating func number() throws -> Double {
        var text: [UInt8] = []
        while try fill() {
            let byte = buffer[position]
            guard
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            else { break }
            text.append(byte)
            position += 1
            guard text.count <= 64 else { throw failure("a number too long") }
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { throw failure("an invalid number") }
        return value
    }

    private mutating func literal(_ word: String) throws {
        for expected in word.utf8 where try next() != expected { throw failure("an invalid literal") }
    }

    /// The next value, whole (after white space).
    mutating func value(depth: Int = 0) throws -> Value {
        guard depth < Self.maxDepth else { throw failure("nesting too deep") }
        switch try peek() {
        case UInt8(ascii: "\"")?: return .string(try string())
        case UInt8(ascii: "{")?:
            position += 1
            var members: [(String, Value)] = []
            var keys: Set<String> = []
            if try take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                let key = try string()
                // Two values for one field: which one was meant cannot be known.
                guard keys.insert(key).inserted else {
                    var twice = failure("this field appears twice in one object (which value is meant cannot be known)")
                    twice.field = key
                    throw twice
                }
                try expect(UInt8(ascii: ":"))
                do {
                    members.append((key, try value(depth: depth + 1)))
                } catch var failure as Failure where failure.field == nil {
                    failure.field = key
                    throw failure
                }
            } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
            return .object(members)
        case UInt8(ascii: "[")?:
            position += 1
            var items: [Value] = []
            if try take(UInt8(ascii: "]")) { return .array(items) }
            repeat { items.append(try value(depth: depth + 1)) } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            return .array(items)
        case UInt8(ascii: "t")?: try literal("true"); return .bool(true)
        case UInt8(ascii: "f")?: try literal("false"); return .bool(false)
        case UInt8(ascii: "n")?: try literal("null"); return .null
        case nil: throw failure("unexpected end of the document")
        default: return .number(try number())
        }
    }

    /// The bytes of the next value, unparsed but checked to be balanced (for `JSONDecoder`); a value
    /// longer than `limit` bytes is refused as it streams past, never held whole, in the words of
    /// `tooLarge` when given.
    mutating func captureValue(limit: Int = maxCapture, tooLarge: String? = nil) throws -> [UInt8] {
        guard try peek() != nil else { throw failure("unexpected end of the document") }
        var out: [UInt8] = []
        var depth = 0, inString = false, escaped = false, stringStart = 0
        repeat {
            let byte = try next()
            out.append(byte)
            guard out.count <= limit else { throw failure(tooLarge ?? "a value larger than \(Self.sizeText(limit))") }
            if inString {
                guard out.count - stringStart <= Self.maxString else { throw failure(Self.tooLong) }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                stringStart = out.count
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= Self.maxDepth else { throw failure("nesting too deep") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth >= 0 else { throw failure("unbalanced brackets") }
            default:
                // A bare number or literal ends where the next delimiter begins.
                if depth == 0, try fill() {
                    switch buffer[position] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return out
                    default: break
                    }
                } else if depth == 0 {
                    return out
                }
            }
        } while depth > 0 || inString
        return out
    }

    /// True when nothing but white space is left.
    mutating func isAtEnd() throws -> Bool { try peek() == nil }
}
