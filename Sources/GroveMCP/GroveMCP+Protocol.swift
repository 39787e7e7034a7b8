import Foundation
import GroveCore

/// JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line; a request (with an id)
/// gets one answer line, a notification none.
extension GroveMCP {
    /// The protocol revisions Grove speaks, newest first: a client asking for one of them gets it,
    /// any other gets the newest (and may end the session if it cannot speak that).
    public static let protocolVersions = ["2025-06-18", "2025-03-26", "2024-11-05"]

    /// JSON-RPC's error codes, as the specification numbers them.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
    }

    /// The answer line to one message from the client, or nil when it needs none (a notification,
    /// or a response: Grove sends the client no requests).
    public func respond(to line: Data) -> Data? {
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: line) else {
            return Self.encode(Self.failure(id: .null, .parseError, "a message is one JSON object on one line"))
        }
        guard let object = message.objectValue, object["jsonrpc"] == "2.0" else {
            return Self.encode(Self.failure(id: .null, .invalidRequest, "a message is a JSON-RPC 2.0 object"))
        }
        let id = object["id"]
        guard let method = object["method"]?.stringValue else {
            if object["result"] != nil || object["error"] != nil { return nil }
            return Self.encode(Self.failure(id: id ?? .null, .invalidRequest, "method is required (text)"))
        }
        guard let id else { return nil }
        switch id {
        case .string, .integer: return Self.encode(answer(id: id, method: method, params: object["params"]))
        default: return Self.encode(Self.failure(id: .null, .invalidRequest, "id is a whole number or a text"))
        }
    }

    func answer(id: JSONValue, method: String, params: JSONValue?) -> JSONValue {
        if let params, params.objectValue == nil, params != .null {
            return Self.failure(id: id, .invalidParams, "params is an object")
        }
        let params = params?.objectValue ?? [:]
        switch method {
        case "initialize":
            let asked = params["protocolVersion"]?.stringValue ?? ""
            let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
            return Self.success(
                id: id,
                [
                    "protocolVersion": .string(version),
                    "capabilities": ["tools": ["listChanged": .bool(false)]],
                    "serverInfo": ["name": "grove", "title": "Grove", "version": .string(GroveVersion.number)],
                    "instructions": .string(
                        "Grove is the person's focus and mindfulness companion: focus sessions that grow a forest, intentions, "
                            + "mindful pauses and timers. Dates are the person's local days (YYYY-MM-DD)."
                            + (allowWrites ? "" : " This server is read-only.")),
                ])
        case "ping":
            return Self.success(id: id, [:])
        case "tools/list":
            return Self.success(id: id, ["tools": .array(tools.map(\.json))])
        case "tools/call":
            guard let name = params["name"]?.stringValue else {
                return Self.failure(id: id, .invalidParams, "params.name is required (the tool's name)")
            }
            let arguments = params["arguments"] ?? .null
            guard arguments == .null || arguments.objectValue != nil else {
                return Self.failure(id: id, .invalidParams, "params.arguments is an object")
            }
            return Self.success(id: id, call(name, arguments.objectValue ?? [:]).json)
        default:
            return Self.failure(id: id, .methodNotFound, "No method \(method.quotedForMessage): Grove serves tools only")
        }
    }

    static func success(id: JSONValue, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    static func failure(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .integer(code.rawValue), "message": .string(message)]]
    }

    /// One message as one line: JSON without newlines (the encoder escapes those inside texts).
    static func encode(_ message: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A JSONValue always encodes (every case is JSON); the fallback keeps the session answering.
        return (try? encoder.encode(message))
            ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"#.utf8)
    }
}
