import Foundation
import GroveCore
import GroveStore

#if canImport(Glibc)
    import Glibc
#endif

/// `grove mcp`: Grove's data for a person's own assistant, over the Model Context Protocol (stdio).
///
/// Read-only unless started with `--allow-writes`: then an assistant may also start a focus session
/// or set an intention. Every tool is one store operation, as in every other face, with the same
/// validation and the same messages; a refused call is a tool error naming the field and the rule,
/// and changes nothing.
///
/// The protocol layer is Grove's own (`GroveMCP+Protocol.swift`, JSON-RPC 2.0 in lines): the
/// Swift SDK's `MCP` module imports FoundationNetworking for its HTTP transport, which would make
/// every `grove` process load libcurl and its dozen libraries at start, for a stdio server that
/// needs none of it.
public struct GroveMCP: Sendable {
    public let database: AppDatabase
    public let allowWrites: Bool

    public init(database: AppDatabase, allowWrites: Bool) {
        self.database = database
        self.allowWrites = allowWrites
    }

    /// The tools an assistant is offered: the reading ones, and the writing ones when allowed.
    public var tools: [Tool] { Self.readTools + (allowWrites ? Self.writeTools : []) }

    /// The longest message read (a tool call is a few hundred bytes; a longer line is refused whole).
    public static let messageLimit = 1 << 20

    /// Serves the client on `input` and `output` until it closes its end; a message that is not
    /// JSON-RPC gets its error answer and the session goes on.
    public func run(input: Int32, output: FileHandle) throws {
        var reader = LineReader(fileDescriptor: input, limit: Self.messageLimit)
        while let line = try reader.next() {
            let answer: Data?
            switch line {
            case .line(let data):
                answer = data.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) ? nil : respond(to: data)
            case .tooLong:
                answer = Self.encode(Self.failure(id: .null, .parseError, "a message is at most \(Self.messageLimit) bytes"))
            }
            guard let answer else { continue }
            do { try output.write(contentsOf: answer + [0x0A]) } catch { throw OutputFailed(error) }
        }
    }

    /// One tool call: its answer as JSON text, or a tool error in words (nothing changed).
    public func call(_ name: String, _ arguments: [String: JSONValue]) -> ToolResult {
        let isWrite = Self.writeTools.contains { $0.name == name }
        guard Self.readTools.contains(where: { $0.name == name }) || isWrite else {
            return .refusal("No tool named \(name.quotedForMessage); the tools are \(tools.map(\.name).joined(separator: ", "))")
        }
        guard !isWrite || allowWrites else {
            return .refusal(
                "grove mcp was started read-only: \(name) changes your data, and needs `grove mcp --allow-writes` in the assistant's configuration"
            )
        }
        do {
            return ToolResult(text: try answer(name, Arguments(values: arguments)), isError: false)
        } catch let error as any GroveValidationError {
            return .refusal("\(error.field): \(error.message)")
        } catch {
            return .refusal("\(error)")
        }
    }

    /// JSON as the API writes it (dates in ISO 8601).
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try GroveExport.makeEncoder(pretty: true).encode(value), as: UTF8.self)
    }
}

/// An answer that could not be written: the assistant went away (a closed pipe, `clientLeft`), or
/// standard output broke (a full disk).
public struct OutputFailed: Error, CustomStringConvertible {
    public let clientLeft: Bool
    public let description: String

    init(_ error: any Error) {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError ?? (error as NSError)
        let code = underlying.domain == NSPOSIXErrorDomain ? Int32(clamping: underlying.code) : 0
        clientLeft = code == EPIPE
        description = "mcp: an answer could not be written to standard output (\(code == 0 ? "\(error)" : String(cString: strerror(code))))"
    }
}

/// A tool the assistant may call: its name, what it does, and the arguments it takes (JSON Schema).
public struct Tool: Sendable {
    public let name: String
    public let description: String
    public let inputSchema: JSONValue
    /// Whether it only reads (MCP's `readOnlyHint`; a writing tool is never destructive here).
    public let readOnly: Bool

    var json: JSONValue {
        [
            "name": .string(name), "description": .string(description), "inputSchema": inputSchema,
            "annotations": ["readOnlyHint": .bool(readOnly), "destructiveHint": .bool(false), "openWorldHint": .bool(false)],
        ]
    }
}

/// What a tool call answers: text (JSON for the reading tools), or an error in words.
public struct ToolResult: Sendable, Equatable {
    public let text: String
    public let isError: Bool

    static func refusal(_ message: String) -> ToolResult { ToolResult(text: message, isError: true) }

    var json: JSONValue { ["content": [["type": "text", "text": .string(text)]], "isError": .bool(isError)] }
}
