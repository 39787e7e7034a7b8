import Foundation

/// Reads CSV (RFC 4180: quoted fields with "" for a quote, CRLF or LF line ends, a UTF-8 byte order
/// mark ignored) a chunk at a time: a file of any size in constant memory. A record longer than
/// `maxRecordBytes` or wider than `maxFields` is an error, not a reason to grow without bound.
struct CSVReader {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var record: Int
        var description: String { "row \(record): \(message)" }
    }

    static let maxRecordBytes = 1 << 20
    static let maxFields = 256

    private let read: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var position = 0
    private var finished = false
    private var started = false
    /// Records read so far (the header is record 1).
    private(set) var record = 0

    init(read: @escaping () throws -> [UInt8]?) {
        self.read = read
    }

    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        guard !finished else { return false }
        guard let chunk = try read(), !chunk.isEmpty else {
            finished = true
            return false
        }
        buffer = chunk
        position = 0
        return true
    }

    /// The next record's fields, or nil at the end. Blank lines are skipped.
    mutating func next() throws -> [String]? {
        if !started {
            started = true
            // A byte order mark some spreadsheets write first.
            if try fill(), buffer.count - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB,
                buffer[position + 2] == 0xBF
            {
                position += 3
            }
        }
        while true {
            guard try fill() else { return nil }
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false, wasQuoted = false, bytes = 0, any = false
            record += 1
            func failure(_ message: String) -> Failure { Failure(message: message, record: record) }
            func endField() throws {
                guard fields.count < Self.maxFields else { throw failure("more than \(Self.maxFields) fields") }
                // Refused, not repaired: U+FFFD in place of what the file held would be stored as if it were text.
                guard let text = String(validating: field, as: UTF8.self) else {
                    throw failure("text that is not UTF-8 (save the file as UTF-8)")
                }
                fields.append(text)
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            }
            loop: while try fill() {
                let byte = buffer[position]
                position += 1
                bytes += 1
                any = true
                guard bytes <= Self.maxRecordBytes else { throw failure("a row longer than 1 MiB") }
                if quoted {
                    if byte == UInt8(ascii: "\"") {
                        if try fill(), buffer[position] == UInt8(ascii: "\"") {
                            position += 1
                            field.append(byte)
                        } else {
                            quoted = false
                        }
                    } else {
                        field.append(byte)
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: ","): try endField()
                case UInt8(ascii: "\""):
                    guard field.isEmpty, !wasQuoted else { throw failure("a quote inside an unquoted field") }
                    quoted = true
                    wasQuoted = true
                case UInt8(ascii: "\r"):
                    if try fill(), buffer[position] == UInt8(ascii: "\n") { position += 1 }
                    break loop
                case UInt8(ascii: "\n"): break loop
                default:
                    guard !wasQuoted else { throw failure("text after a closing quote") }
                    field.append(byte)
                }
            }
            guard !quoted else { throw failure("a quoted field that never ends") }
            try endField()
            if fields.count == 1, fields[0].isEmpty, any { record -= 1; continue }
            return fields
        }
    }

    /// `field` without the blanks around it (`.whitespaces`). A field that starts and ends with a
    /// printable ASCII character — nearly every field of a large file — comes back as it is, without
    /// a trip through Foundation (which was two thirds of reading a row of a CSV import).
    static func trimmed(_ field: String) -> String {
        guard let first = field.utf8.first, let last = field.utf8.last else { return field }
        func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
        return plain(first) && plain(last) ? field : field.trimmingCharacters(in: .whitespaces)
    }
}
