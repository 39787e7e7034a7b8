import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    static let newestFirst = "date DESC, updated_at DESC, id DESC"

    // MARK: Writes

    /// Refuses a change of scope, or a date outside the period the intention's id was derived from.
    static func checkStaysInPeriod(_ stored: Intention, movedTo updated: Intention, calendar: ZonedCalendar) throws {
        guard updated.scope == stored.scope else {
            throw InvalidField(
                "scope",
                "scope cannot change: an intention keeps its scope (\(stored.scope.rawValue)): set a \(updated.scope.rawValue) intention instead"
            )
        }
        let period = stored.scope.period(containing: stored.date, calendar: calendar)
        guard period.contains(updated.date) else {
            throw InvalidField(
                "date",
                "date must stay within this intention's \(stored.scope.rawValue) (\(stored.scope.periodDescription(containing: stored.date, calendar: calendar))): set the intention of \(updated.date)'s \(stored.scope.rawValue) instead"
            )
        }
    }

    // MARK: Reads

    /// Intentions whose period could contain `day`: dated within its month or its week (indexed range).
    func candidates(_ db: Database, around day: LocalDay, calendar: ZonedCalendar) throws -> [Intention] {
        let week = IntentionScope.week.period(containing: day, calendar: calendar)
        let month = IntentionScope.month.period(containing: day, calendar: calendar)
        let low = min(week.lowerBound, month.lowerBound), high = max(week.upperBound, month.upperBound)
        // A cached statement, not the query interface: that would read the table's schema first, on
        // the path of `grove now`, which runs on every prompt.
        return try db.cachedRecords(
            IntentionRecord.self, "SELECT * FROM intention WHERE date >= ? AND date < ?", [low.description, high.description]
        ).map(\.intention)
    }

}

extension IntentionsRoom {
    /// Sets the intention for the period of `scope` that contains `date` (today by default):
    /// replaces that period's intention if there is one, else creates it.
    @discardableResult
    public func set(
        _ text: String, scope: IntentionScope, date: LocalDay? = nil, themeId: UUID? = nil,
        customFont: String? = nil, quote: String? = nil, aiRephrased: Bool = false, aiGenerated: Bool = false
    ) throws -> Intention {
        let now = environment.now()
        return try write { db in
            let calendar = try calendar(db)
            let day = date ?? calendar.localDay(of: now)
            if let themeId, try !ThemeRecord.exists(db, key: themeId.uuidString) { throw IntentionValidationError.unknownTheme(themeId) }
            let period = scope.period(containing: day, calendar: calendar)
            var intention: Intention
            if let existing = try IntentionRecord.filter(
                sql: "scope = ? AND date >= ? AND date < ?",
                arguments: [scope.rawValue, period.lowerBound.description, period.upperBound.description]
            )
            .order(sql: "updated_at DESC").fetchOne(db)?.intention {
                intention = existing
                let newText = text.trimmingCharacters(in: .whitespacesAndNewlines)
                // A quote chosen for other words is stale once the words change.
                if newText != existing.text { intention.quote = nil }
                intention.text = newText
                intention.updatedAt = now
                if themeId != nil { intention.themeId = themeId }
                if customFont != nil { intention.customFont = customFont }
                if let quote { intention.quote = quote }
                intention.aiRephrased = aiRephrased
                intention.aiGenerated = aiGenerated
            } else {
                // The id comes from the period (UUIDv5): two devices setting "today" offline create the
                // same intention, which sync merges field by field instead of keeping two. On an
                // encrypted account it is keyed, so that the server cannot tell the period from it.
                intention = Intention(
                    id: try KeyedID.id(IntentionID.forPeriod(scope: scope, start: period.lowerBound), db),
                    text: text.trimmingCharacters(in: .whitespacesAndNewlines), scope: scope,
                    date: day, createdAt: now, themeId: themeId, customFont: customFont, aiGenerated: aiGenerated,
                    aiRephrased: aiRephrased, quote: quote)
            }
            try intention.validate()
            try IntentionRecord(intention).upsert(db)
            // Setting the words a period already has is a choice too (it beats older, other words).
            let chosen =
                ["text"] + [("themeId", themeId != nil), ("customFont", customFont != nil), ("quote", quote != nil)].filter(\.1).map(\.0)
            try SyncChoice.record(db, .intention, id: intention.id.uuidString, fields: chosen)
            return intention
        }
    }

    /// Inserts a new intention (seed 004's `create`).
    public func create(_ intention: Intention) throws {
        try intention.validate()
        try write { db in
            if let themeId = intention.themeId, try !ThemeRecord.exists(db, key: themeId.uuidString) {
                throw IntentionValidationError.unknownTheme(themeId)
            }
            guard try !IntentionRecord.exists(db, key: intention.id.uuidString) else {
                throw InvalidField("id", "An intention with id \(intention.id.uuidString) already exists")
            }
            try IntentionRecord(intention).insert(db)
        }
    }

    /// Updates an intention, stamping `updatedAt` (seed 004's `update`).
    ///
    /// An intention's id is derived from its period, so its date may move only within that period:
    /// a move elsewhere would leave two intentions for one period (and setting either would delete
    /// the other). Set the other period's intention instead.
    @discardableResult
    public func update(_ intention: Intention) throws -> Intention {
        var updated = intention
        updated.updatedAt = environment.now()
        try updated.validate()
        try write { db in
            if let themeId = updated.themeId, try !ThemeRecord.exists(db, key: themeId.uuidString) {
                throw IntentionValidationError.unknownTheme(themeId)
            }
            guard let stored = try IntentionRecord.fetchOne(db, key: intention.id.uuidString)?.intention else {
                throw NotFoundError("intention", intention.id.uuidString)
            }
            try AppDatabase.checkStaysInPeriod(stored, movedTo: updated, calendar: try calendar(db))
            try IntentionRecord(updated).update(db)
        }
        return updated
    }

    /// Changes the given fields of an intention in one transaction (`PUT /intentions/:id`, `grove intention
    /// edit`): read, check and write together, so that a concurrent edit is never overwritten with stale fields.
    @discardableResult
    public func edit(id: UUID, _ changes: IntentionChanges) throws -> Intention {
        let now = environment.now()
        return try write { db in
            guard var intention = try IntentionRecord.fetchOne(db, key: id.uuidString)?.intention else {
                throw NotFoundError("intention", id.uuidString)
            }
            let stored = intention
            if let text = changes.text {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                // A quote chosen for other words is stale once the words change (as `intentions.set`).
                if trimmed != stored.text, changes.quote == nil { intention.quote = nil }
                intention.text = trimmed
            }
            if let themeId = changes.themeId {
                guard try ThemeRecord.exists(db, key: themeId.uuidString) else { throw IntentionValidationError.unknownTheme(themeId) }
                intention.themeId = themeId
            }
            if let font = changes.customFont { intention.customFont = font.isEmpty ? nil : font }
            if let quote = changes.quote { intention.quote = quote.isEmpty ? nil : quote }
            if let date = changes.date { intention.date = date }
            intention.updatedAt = now
            try intention.validate()
            try AppDatabase.checkStaysInPeriod(stored, movedTo: intention, calendar: try calendar(db))
            try IntentionRecord(intention).update(db)
            try SyncChoice.record(db, .intention, id: intention.id.uuidString, fields: changes.fieldNames)
            return intention
        }
    }

    public func delete(id: UUID) throws {
        try write { db in
            guard try IntentionRecord.deleteOne(db, key: id.uuidString) else { throw NotFoundError("intention", id.uuidString) }
        }
    }

    public func all() throws -> [Intention] {
        try writer.snapshotRead { db in
            try db.cachedRecords(IntentionRecord.self, "SELECT * FROM intention ORDER BY \(AppDatabase.newestFirst)").map(\.intention)
        }
    }

    /// The intentions whose id starts with `prefix` (case-insensitive; ids are stored upper-case).
    public func all(idPrefix prefix: String) throws -> [Intention] {
        let upper = prefix.uppercased()
        guard upper.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        return try writer.snapshotRead { db in
            try IntentionRecord.filter(sql: "id >= ? AND id < ?", arguments: [upper, upper + "\u{7F}"]).limit(2).fetchAll(db).map(
                \.intention)
        }
    }

    public func find(id: UUID) throws -> Intention? {
        try writer.snapshotRead { db in try IntentionRecord.fetchOne(db, key: id.uuidString)?.intention }
    }

    /// The intention of `scope` whose period contains `date`.
    public func find(for date: LocalDay, scope: IntentionScope) throws -> Intention? {
        try writer.snapshotRead { db in
            let calendar = try calendar(db)
            return IntentionHierarchy.current(
                from: try database.candidates(db, around: date, calendar: calendar).filter { $0.scope == scope },
                on: date, calendar: calendar)
        }
    }

    /// The intention to show on `date` (today by default): day > week > month.
    public func current(on date: LocalDay? = nil) throws -> Intention? {
        try writer.snapshotRead { db in
            let calendar = try calendar(db)
            let day = date ?? calendar.localDay(of: environment.now())
            return IntentionHierarchy.current(
                from: try database.candidates(db, around: day, calendar: calendar), on: day, calendar: calendar)
        }
    }

    /// The intentions in effect on `date` (today by default), one per scope, day first.
    public func layers(on date: LocalDay? = nil) throws -> [Intention] {
        try writer.snapshotRead { db in
            let calendar = try calendar(db)
            let day = date ?? calendar.localDay(of: environment.now())
            return IntentionHierarchy.layers(
                from: try database.candidates(db, around: day, calendar: calendar), on: day, calendar: calendar)
        }
    }

    /// Case-insensitive text search, newest first. An empty query finds nothing.
    public func search(_ query: String) throws -> [Intention] {
        let q = query.trimmingCharacters(in: .whitespaces)
        guard !q.isEmpty else { return [] }
        // Intentions number a few a day, so matching in Swift is cheap, and it folds accents and
        // case for every script (SQLite's LIKE folds ASCII only).
        return try all().filter { $0.matches(query: q) }
    }

    /// Intentions dated between two days inclusive, newest first.
    public func all(from: LocalDay, to: LocalDay) throws -> [Intention] {
        try RangeRule.check(from: from, to: to)
        // A cached statement, not the query interface, which reads the table's schema first: `grove
        // review` asks this on every run (2.5 M of its instructions).
        return try writer.snapshotRead { db in
            try db.cachedRecords(
                IntentionRecord.self, "SELECT * FROM intention WHERE date BETWEEN ? AND ? ORDER BY \(AppDatabase.newestFirst)",
                [from.description, to.description]
            ).map(\.intention)
        }
    }

    public func all(scope: IntentionScope) throws -> [Intention] {
        try writer.snapshotRead { db in
            try db.cachedRecords(
                IntentionRecord.self, "SELECT * FROM intention WHERE scope = ? ORDER BY \(AppDatabase.newestFirst)", [scope.rawValue]
            ).map(\.intention)
        }
    }
}
