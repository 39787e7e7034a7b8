import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/timers/…`: timers, their checklists, and seed 001's sync messages.
struct TimersController {
    let database: AppDatabase

    struct CreateInput: Decodable {
        var name: String
        var durationInSeconds: Int
        var icon: String?
        var colorHex: String?
        var notes: String?
        var todos: [String]?
    }
    struct UpdateInput: Decodable {
        var name: String?; var durationInSeconds: Int?; var icon: String?; var colorHex: String?; var notes: String?
    }
    struct TodoInput: Decodable { var text: String }
    struct TodoUpdate: Decodable { var text: String?; var isCompleted: Bool? }
    struct MoveInput: Decodable { var position: Int }

    func addRoutes(to api: APIRouter) {
        api.get("timers", cache: .data, use: list)
        api.post("timers", use: create)
        // Not kept: the payload carries the instant it was made (`syncTimestamp`).
        api.get("timers/sync", cache: nil, use: syncPayload)
        api.post("timers/sync", use: applyPayload)
        api.post("timers/sync/messages", use: applyMessage)
        api.post("timers/sync/quick-actions", use: applyQuickAction)
        // Not kept: each answer is the countdown to the millisecond, computed per request.
        api.get("timers/runs", cache: nil, use: runs)
        api.post("timers/samples", use: loadSamples)
        api.post("timers/:id/run", use: startRun)
        api.post("timers/:id/run/pause", use: pauseRun)
        api.post("timers/:id/run/resume", use: resumeRun)
        api.delete("timers/:id/run", use: stopRun)
        api.get("timers/:id", cache: .data, use: show)
        api.patch("timers/:id", use: update)
        api.delete("timers/:id", use: delete)
        api.post("timers/:id/todos", use: addTodo)
        api.patch("timers/:id/todos/:todoId", use: updateTodo)
        api.post("timers/:id/todos/:todoId/toggle", use: toggleTodo)
        api.post("timers/:id/todos/:todoId/move", use: moveTodo)
        api.delete("timers/:id/todos/:todoId", use: deleteTodo)
    }

    // MARK: Timers

    /// `GET /timers?sort=createdAt|name&incomplete=true`
    @Sendable func list(_ request: Request, context: GroveRequestContext) throws -> JSON<[TimerDTO]> {
        let order = try request.query("sort", AppDatabase.TimerOrder.init(validating:field:)) ?? .createdAt
        let timers = try database.timers.all(orderedBy: order, incompleteOnly: try request.flag("incomplete"))
        return JSON(timers.map(TimerDTO.init(from:)))
    }

    /// `POST /timers`
    @Sendable func create(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerDTO> {
        let input = try await request.decode(as: CreateInput.self, context: context)
        let timer = try database.timers.create(
            name: input.name, durationInSeconds: input.durationInSeconds, icon: input.icon ?? NamedTimer.defaultIcon,
            colorHex: input.colorHex ?? NamedTimer.defaultColorHex, notes: input.notes, todos: input.todos ?? [])
        return JSON(TimerDTO(from: timer), status: .created)
    }

    /// `GET /timers/:id`
    /// `POST /timers/samples`: adds seed 001's sample timers that are not there yet.
    @Sendable func loadSamples(_ request: Request, context: GroveRequestContext) throws -> JSON<[String: Int]> {
        JSON(["added": try database.timers.loadSamples()])
    }

    // MARK: Runs (a countdown kept in the store: it outlives the page)

    /// `GET /timers/runs`: every timer counting down, paused or finished, as of now.
    @Sendable func runs(_ request: Request, context: GroveRequestContext) throws -> JSON<[TimerRunStatus]> {
        JSON(try database.timers.runs())
    }

    /// `POST /timers/:id/run`: starts (or restarts) the timer from its full length.
    @Sendable func startRun(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerRunStatus> {
        let at = try await request.actionInstant(context: context)
        return JSON(try database.timers.start(timerId: try context.uuid("id"), at: at), status: .created)
    }

    /// `POST /timers/:id/run/pause`
    @Sendable func pauseRun(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerRunStatus> {
        let at = try await request.actionInstant(context: context)
        return JSON(try database.timers.pause(timerId: try context.uuid("id"), at: at))
    }

    /// `POST /timers/:id/run/resume`
    @Sendable func resumeRun(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerRunStatus> {
        let at = try await request.actionInstant(context: context)
        return JSON(try database.timers.resume(timerId: try context.uuid("id"), at: at))
    }

    /// `DELETE /timers/:id/run`: stops it (nothing to stop is fine: the result is the same).
    @Sendable func stopRun(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.timers.stop(timerId: try context.uuid("id"))
        return NoContent()
    }

    @Sendable func show(_ request: Request, context: GroveRequestContext) throws -> JSON<TimerDTO> {
        JSON(TimerDTO(from: try timer(try context.uuid("id"))))
    }

    /// `PATCH /timers/:id`: only the fields given change.
    @Sendable func update(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerDTO> {
        let input = try await request.decode(as: UpdateInput.self, context: context)
        let updated = try database.timers.update(
            id: try context.uuid("id"), name: input.name, durationInSeconds: input.durationInSeconds,
            icon: input.icon, colorHex: input.colorHex, notes: input.notes)
        return JSON(TimerDTO(from: updated))
    }

    /// `DELETE /timers/:id`, with its checklist.
    @Sendable func delete(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.timers.delete(id: try context.uuid("id"))
        return NoContent()
    }

    // MARK: Seed 001's sync messages

    /// `GET /timers/sync`: every timer as the sync payload.
    @Sendable func syncPayload(_ request: Request, context: GroveRequestContext) throws -> JSON<TimerSyncPayload> {
        JSON(try database.timers.syncPayload())
    }

    /// `POST /timers/sync`: seed 001's whole payload, each timer by its `updatedAt`.
    @Sendable func applyPayload(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerSyncPayload> {
        let payload = try await request.decode(as: TimerSyncPayload.self, context: context)
        try database.timers.apply(payload)
        return JSON(try database.timers.syncPayload())
    }

    /// `POST /timers/sync/messages`: a `TimerUpdateMessage` from another device (an older one than the
    /// timer here changes nothing).
    @Sendable func applyMessage(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerSyncPayload> {
        let message = try await request.decode(as: TimerUpdateMessage.self, context: context)
        try database.timers.apply(message)
        return JSON(try database.timers.syncPayload())
    }

    /// `POST /timers/sync/quick-actions`: a to-do toggled or a note changed on another device.
    @Sendable func applyQuickAction(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerDTO> {
        let message = try await request.decode(as: QuickActionMessage.self, context: context)
        try database.timers.apply(message)
        return JSON(TimerDTO(from: try timer(message.timerID)))
    }

    // MARK: Checklists

    /// `POST /timers/:id/todos`
    @Sendable func addTodo(_ request: Request, context: GroveRequestContext) async throws -> JSON<TodoItemDTO> {
        let input = try await request.decode(as: TodoInput.self, context: context)
        let item = try database.timers.addTodo(timerID: try context.uuid("id"), text: input.text)
        return JSON(TodoItemDTO(from: item), status: .created)
    }

    /// `PATCH /timers/:id/todos/:todoId`: new text, done or not.
    @Sendable func updateTodo(_ request: Request, context: GroveRequestContext) async throws -> JSON<TodoItemDTO> {
        let input = try await request.decode(as: TodoUpdate.self, context: context)
        let timerID = try context.uuid("id"), todoID = try context.uuid("todoId")
        var item = try todo(timerID, todoID)
        if let text = input.text { item = try database.timers.editTodo(timerID: timerID, todoID: todoID, text: text) }
        if let done = input.isCompleted, done != item.isCompleted {
            item = try database.timers.toggleTodo(timerID: timerID, todoID: todoID)
        }
        return JSON(TodoItemDTO(from: item))
    }

    /// `POST /timers/:id/todos/:todoId/toggle`
    @Sendable func toggleTodo(_ request: Request, context: GroveRequestContext) throws -> JSON<TodoItemDTO> {
        JSON(TodoItemDTO(from: try database.timers.toggleTodo(timerID: try context.uuid("id"), todoID: try context.uuid("todoId"))))
    }

    /// `POST /timers/:id/todos/:todoId/move`: to a 0-based position; answers the whole checklist.
    @Sendable func moveTodo(_ request: Request, context: GroveRequestContext) async throws -> JSON<TimerDTO> {
        let input = try await request.decode(as: MoveInput.self, context: context)
        let timerID = try context.uuid("id")
        try database.timers.moveTodo(timerID: timerID, todoID: try context.uuid("todoId"), to: input.position)
        return JSON(TimerDTO(from: try timer(timerID)))
    }

    /// `DELETE /timers/:id/todos/:todoId`
    @Sendable func deleteTodo(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        try database.timers.deleteTodo(timerID: try context.uuid("id"), todoID: try context.uuid("todoId"))
        return NoContent()
    }

    private func timer(_ id: UUID) throws -> NamedTimer {
        guard let timer = try database.timers.find(id: id) else { throw NotFoundError("timer", id.uuidString) }
        return timer
    }

    private func todo(_ timerID: UUID, _ todoID: UUID) throws -> TodoItem {
        guard let item = try timer(timerID).todoItems.first(where: { $0.id == todoID }) else {
            throw NotFoundError("to-do", todoID.uuidString)
        }
        return item
    }
}
