import Foundation
import GRDB
import GroveCore

extension TimersRoom {
    /// Applies a sync message from another device (seed 001's `TimerUpdateMessage`) by "updatedAt
    /// wins": a message older than the timer here changes nothing, and a to-do changed here after the
    /// message was written keeps its newer version (a whole-checklist message never deletes it).
    /// Returns whether the message changed anything.
    @discardableResult
    public func apply(_ message: TimerUpdateMessage) throws -> Bool {
        switch message.type {
        case .created, .updated:
            guard let dto = message.timer else { throw InvalidField("timer", "A \(message.type.rawValue) message must carry the timer") }
            guard dto.id == message.timerID else {
                throw InvalidField("timerID", "timerID must be the id of the timer the message carries")
            }
            let incoming = try dto.toModel()
            for item in incoming.todoItems { try item.validate() }
            return try write { db in
                let existing = try database.timer(db, id: incoming.id)
                guard let merged = TimerMerge.merge(existing: existing, incoming: incoming) else { return false }
                try database.saveTimer(merged, db)
                return true
            }
        case .deleted:
            return try write { db in try TimerRecord.deleteOne(db, key: message.timerID.uuidString) }
        }
    }

    /// Applies seed 001's whole payload: each timer as an update message, by its `updatedAt`.
    /// Returns how many timers changed.
    /// Every timer is checked before any is applied, and all are applied in one transaction: a
    /// payload with one bad timer changes nothing.
    @discardableResult
    public func apply(_ payload: TimerSyncPayload) throws -> Int {
        try AppDatabase.checkUnique(payload.timers.map(\.id.uuidString), "timers")
        let incoming = try payload.timers.map { dto in
            let timer = try dto.toModel()
            for item in timer.todoItems { try item.validate() }
            return timer
        }
        return try write { db in
            var changed = 0
            for timer in incoming {
                guard let merged = TimerMerge.merge(existing: try database.timer(db, id: timer.id), incoming: timer) else { continue }
                try database.saveTimer(merged, db)
                changed += 1
            }
            return changed
        }
    }

    /// Applies a quick action from another device (seed 001's `QuickActionMessage`).
    public func apply(_ message: QuickActionMessage) throws {
        try database.modifyTimer(id: message.timerID) { timer in try message.apply(to: &timer, at: environment.now()) }
    }

    /// All timers as seed 001's sync payload.
    public func syncPayload() throws -> TimerSyncPayload {
        TimerSyncPayload(timers: try all().map(TimerDTO.init(from:)), syncTimestamp: environment.now())
    }
}
