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
    struct UpdateInput: Decodable { var name: String?; var durationInSeconds: Int?; var icon: String?; var colorHex: String?; var notes: String? }
    struct TodoInput: Decodable { var text: String }
    struct TodoUpdate: Decodable { var text: String?; var isCompleted: Bool? }
    struct MoveInput: Decodable { var position: Int }

    func addRoutes(to api: APIRouter) {
        api.get("timers") { request, _ in
            let sort = request.queryString("sort") ?? "createdAt"
            guard let order = AppDatabase.TimerOrder(rawValue: sort) else { throw APIError.badRequest(field: "sort", detail: "sort must be createdAt or name") }
            let timers = try request.flag("incomplete") ? try database.timersWithIncompleteTodos() : try database.timers(orderedBy: order)
            return JSON(timers.map(TimerDTO.init(from:)))
        }
        api.post("timers") { request, context in
            let input = try await request.decode(as: CreateInput.self, context: context)
            let timer = try database.createTimer(name: input.name, durationInSeconds: input.durationInSeconds, icon: input.icon ?? NamedTimer.defaultIcon,
                                                 colorHex: input.colorHex ?? NamedTimer.defaultColorHex, notes: input.notes, todos: input.todos ?? [])
            return JSON(TimerDTO(from: timer), status: .created)
        }
        api.get("timers/sync") { _, _ in JSON(try database.timerSyncPayload()) }
        api.post("timers/sync/messages") { request, context in
            let message = try await request.decode(as: TimerUpdateMessage.self, context: context)
            try database.apply(message)
            return JSON(try database.timerSyncPayload())
        }
        api.post("timers/sync/quick-actions") { request, context in
            let message = try await request.decode(as: QuickActionMessage.self, context: context)
            try database.apply(message)
            return JSON(TimerDTO(from: try timer(message.timerID)))
        }
        api.get("timers/:id") { _, context in JSON(TimerDTO(from: try timer(try context.uuid("id")))) }
        api.patch("timers/:id") { request, context in
            let input = try await request.decode(as: UpdateInput.self, context: context)
            let updated = try database.updateTimer(id: try context.uuid("id"), name: input.name, durationInSeconds: input.durationInSeconds,
                                                   icon: input.icon, colorHex: input.colorHex, notes: input.notes)
            return JSON(TimerDTO(from: updated))
        }
        api.delete("timers/:id") { _, context in
            try database.deleteTimer(id: try context.uuid("id"))
            return NoContent()
        }
        api.post("timers/:id/todos") { request, context in
            let input = try await request.decode(as: TodoInput.self, context: context)
            let item = try database.addTodo(timerID: try context.uuid("id"), text: input.text)
            return JSON(TodoItemDTO(from: item), status: .created)
        }
        api.patch("timers/:id/todos/:todoId") { request, context in
            let input = try await request.decode(as: TodoUpdate.self, context: context)
            let timerID = try context.uuid("id"), todoID = try context.uuid("todoId")
            var item = try todo(timerID, todoID)
            if let text = input.text { item = try database.editTodo(timerID: timerID, todoID: todoID, text: text) }
            if let done = input.isCompleted, done != item.isCompleted { item = try database.toggleTodo(timerID: timerID, todoID: todoID) }
            return JSON(TodoItemDTO(from: item))
        }
        api.post("timers/:id/todos/:todoId/toggle") { _, context in
            let item = try database.toggleTodo(timerID: try context.uuid("id"), todoID: try context.uuid("todoId"))
            return JSON(TodoItemDTO(from: item))
        }
        api.post("timers/:id/todos/:todoId/move") { request, context in
            let input = try await request.decode(as: MoveInput.self, context: context)
            let timerID = try context.uuid("id")
            try database.moveTodo(timerID: timerID, todoID: try context.uuid("todoId"), to: input.position)
            return JSON(TimerDTO(from: try timer(timerID)))
        }
        api.delete("timers/:id/todos/:todoId") { _, context in
            try database.deleteTodo(timerID: try context.uuid("id"), todoID: try context.uuid("todoId"))
            return NoContent()
        }
    }

    private func timer(_ id: UUID) throws -> NamedTimer {
        guard let timer = try database.timer(id: id) else { throw NotFoundError("timer", id.uuidString) }
        return timer
    }

    private func todo(_ timerID: UUID, _ todoID: UUID) throws -> TodoItem {
        guard let item = try timer(timerID).todoItems.first(where: { $0.id == todoID }) else { throw NotFoundError("to-do", todoID.uuidString) }
        return item
    }
}
