import Foundation

/// A small reader of `text/event-stream` (the WHATWG rules Grove's server uses: `event:`, `data:`,
/// comments, blank line ends an event; CR, LF or CRLF line ends), fed chunk by chunk.
public struct ServerSentEvents: Sendable {
    public struct Event: Equatable, Sendable {
        public var name: String
        public var data: String
    }

    private var line: [UInt8] = []
    private var name = ""
    private var data: [String] = []
    private var lastWasCR = false
    /// The longest line kept (a hostile stream cannot grow memory without bound).
    static let maxLine = 64 * 1024

    public init() {}

    /// The events completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if byte == 0x0A && lastWasCR { lastWasCR = false; continue }
            lastWasCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = endLine() { events.append(event) }
            } else if line.count < Self.maxLine {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer { name = ""; data = [] }
            guard !data.isEmpty else { return nil }
            return Event(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        let field: Substring, value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            var rest = text[text.index(after: colon)...]
            if rest.hasPrefix(" ") { rest = rest.dropFirst() }
            value = rest
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }

    /// The head in a poke's data (`{"head":42}`).
    public static func head(_ data: String) -> Int64? {
        struct Poke: Decodable { var head: Int64 }
        return try? JSONDecoder().decode(Poke.self, from: Data(data.utf8)).head
    }
}
