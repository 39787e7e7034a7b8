import Foundation
import GroveCore

extension SessionImport {
    /// A session read straight from its JSON object (no intermediate tree: a million of them),
    /// with the export's field names; a message naming the field for anything missing or of the
    /// wrong kind. Unknown fields are skipped, as `JSONDecoder` skips them.
    static func session(from reader: inout JSONStreamReader, index: Int, tagForms: inout TagForms) throws -> FocusSession {
        var id: UUID?, start: Date?, end: Date?, state: SessionState?, duration: Double?, paused: Double?
        var created: Date?, planned: Double?, pausedAt: Date?, zone: String?, endDay: LocalDay?, uncertain: Bool?
        var openEnded = false
        var tags: [String] = []
        func string(_ key: String) throws -> String? {
            switch try reader.peek() {
            case UInt8(ascii: "n")?: _ = try reader.value(); return nil
            case UInt8(ascii: "\"")?: return try reader.string()
            default: throw unreadable(index, key, "expected a string")
            }
        }
        func instant(_ key: String) throws -> Date? {
            guard let text = try string(key) else { return nil }
            guard let date = GroveExport.parseInstant(text) else {
                throw unreadable(index, key, "Expected an ISO 8601 instant, got \"\(text.prefix(40))\"")
            }
            return date
        }
        func number(_ key: String) throws -> Double? {
            switch try reader.value() {
            case .null: return nil
            case .number(let n): return n
            default: throw unreadable(index, key, "expected a number")
            }
        }
        guard try reader.take(UInt8(ascii: "{")) else { throw unreadable(index, nil, "expected an object") }
        if try !reader.take(UInt8(ascii: "}")) {
            repeat {
                let key = try reader.string()
                try reader.expect(UInt8(ascii: ":"))
                switch key {
                case "id":
                    let text = try string(key)
                    guard let text else { break }
                    guard let value = SessionWriter.uuid(fromText: text) else {
                        throw unreadable(index, key, "Attempted to decode UUID from invalid UUID string.")
                    }
                    id = value
                case "startTime": start = try instant(key)
                case "endTime": end = try instant(key)
                case "createdAt": created = try instant(key)
                case "pausedAt": pausedAt = try instant(key)
                case "state":
                    guard let text = try string(key) else { break }
                    guard let value = SessionState(rawValue: text) else {
                        throw unreadable(index, key, "Cannot initialize SessionState from invalid String value \(text.prefix(40))")
                    }
                    state = value
                case "duration": duration = try number(key)
                case "pausedDuration": paused = try number(key)
                case "plannedDuration": planned = try number(key)
                case "timeZoneIdentifier": zone = try string(key)
                case "endDay":
                    guard let text = try string(key) else { break }
                    guard let day = LocalDay(text) else {
                        throw unreadable(index, key, "Expected a date as YYYY-MM-DD, got \"\(text.prefix(40))\"")
                    }
                    endDay = day
                case "tags":
                    switch try reader.value() {
                    case .null: tags = []
                    case .array(let items):
                        tags = try items.map { item in
                            guard case .string(let tag) = item else { throw unreadable(index, key, "expected an array of strings") }
                            return tag
                        }
                        // Grove's form (trimmed, once each, sorted), or the rule a tag breaks.
                        do { tags = try tagForms.normalized(tags) } catch let error as InvalidField {
                            throw InvalidField("tags", "\(error.message) (focusSessions[\(index)])")
                        }
                    default: throw unreadable(index, key, "expected an array of strings")
                    }
                case "clockUncertain":
                    switch try reader.value() {
                    case .bool(let flag): uncertain = flag
                    case .null: uncertain = nil
                    default: throw unreadable(index, key, "expected true or false")
                    }
                case "openEnded":
                    switch try reader.value() {
                    case .bool(let flag): openEnded = flag
                    case .null: openEnded = false
                    default: throw unreadable(index, key, "expected true or false")
                    }
                default: _ = try reader.value()
                }
            } while try reader.take(UInt8(ascii: ","))
            try reader.expect(UInt8(ascii: "}"))
        }
        func required<T>(_ key: String, _ value: T?) throws -> T {
            guard let value else { throw StoreError.unreadableExport("missing field focusSessions[\(index)].\(key)") }
            return value
        }
        return FocusSession(
            id: try required("id", id), startTime: try required("startTime", start), endTime: end, state: try required("state", state),
            duration: try required("duration", duration), pausedDuration: try required("pausedDuration", paused),
            createdAt: try required("createdAt", created), plannedDuration: try required("plannedDuration", planned),
            pausedAt: pausedAt, timeZoneIdentifier: try required("timeZoneIdentifier", zone), endDay: endDay,
            clockUncertain: try required("clockUncertain", uncertain), tags: tags, openEnded: openEnded)
    }

    private static func unreadable(_ index: Int, _ key: String?, _ why: String) -> StoreError {
        .unreadableExport(".focusSessions[\(index)]\(key.map { ".\($0)" } ?? ""): \(why)")
    }
}
