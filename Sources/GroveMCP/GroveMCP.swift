import Foundation
import GroveCore
import GroveStore
import MCP

/// `grove mcp`: Grove's data for a person's own assistant, over the Model Context Protocol (stdio).
///
/// Read-only unless started with `--allow-writes`: then an assistant may also start a focus session
/// or set an intention. Every tool is one store operation, as in every other face, with the same
/// validation and the same messages; a refused call is a tool error naming the field and the rule,
/// and changes nothing.
public struct GroveMCP: Sendable {
    public let database: AppDatabase
    public let allowWrites: Bool

    public init(database: AppDatabase, allowWrites: Bool) {
        self.database = database
        self.allowWrites = allowWrites
    }

    /// The tools an assistant is offered: the reading ones, and the writing ones when allowed.
    public var tools: [Tool] { Self.readTools + (allowWrites ? Self.writeTools : []) }

    /// Serves `transport` until the client goes away (stdin closes).
    public func run(transport: any Transport) async throws {
        let server = Server(
            name: "grove", version: GroveVersion.number,
            capabilities: .init(tools: .init(listChanged: false)))
        let tools = tools
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools) }
        await server.withMethodHandler(CallTool.self) { params in self.call(params.name, params.arguments ?? [:]) }
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
    }

    /// One tool call: its answer as JSON text, or a tool error in words (nothing changed).
    public func call(_ name: String, _ arguments: [String: Value]) -> CallTool.Result {
        let isWrite = Self.writeTools.contains { $0.name == name }
        guard Self.readTools.contains(where: { $0.name == name }) || isWrite else {
            return Self.refusal("No tool named \(name.prefix(64)); the tools are \(tools.map(\.name).joined(separator: ", "))")
        }
        guard !isWrite || allowWrites else {
            return Self.refusal(
                "grove mcp was started read-only: \(name) changes your data, and needs `grove mcp --allow-writes` in the assistant's configuration"
            )
        }
        do {
            return .init(content: [.text(try answer(name, Arguments(values: arguments)))], isError: false)
        } catch let error as any GroveValidationError {
            return Self.refusal("\(error.field): \(error.message)")
        } catch {
            return Self.refusal("\(error)")
        }
    }

    static func refusal(_ message: String) -> CallTool.Result { .init(content: [.text(message)], isError: true) }

    /// JSON as the API writes it (dates in ISO 8601).
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try GroveExport.makeEncoder(pretty: true).encode(value), as: UTF8.self)
    }
}

/// A tool's arguments, read with the field named in every refusal.
struct Arguments {
    let values: [String: Value]

    func string(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw InvalidField(name, "\(name) is text") }
        return text
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let number = value.intValue ?? value.doubleValue.flatMap({ $0.rounded() == $0 ? Int(exactly: $0) : nil }),
            range.contains(number)
        else { throw InvalidField(name, "\(name) is a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    func strings(_ name: String) throws -> [String] {
        guard let value = values[name], !value.isNull else { return [] }
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
