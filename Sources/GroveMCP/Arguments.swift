import Foundation
import GroveCore

/// A tool's arguments, read with the field named in every refusal.
struct Arguments {
    let values: [String: JSONValue]

    func string(_ name: String) throws -> String? {
        guard let value = values[name], value != .null else { return nil }
        guard let text = value.stringValue else { throw InvalidField(name, "\(name) is text") }
        return text
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], value != .null else { return nil }
        guard let number = value.intValue,
            range.contains(number)
        else { throw InvalidField(name, "\(name) is a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    func strings(_ name: String) throws -> [String] {
        guard let value = values[name], value != .null else { return [] }
        guard let items = value.arrayValue, items.count <= 20 else { throw InvalidField(name, "\(name) is a list of at most 20 texts") }
        return try items.map {
            guard let text = $0.stringValue else { throw InvalidField(name, "\(name) is a list of texts") }
            return text
        }
    }

    func day(_ name: String, today: LocalDay) throws -> LocalDay? {
        try string(name).map { try LocalDay(validating: $0, field: name, today: today) }
    }
}
