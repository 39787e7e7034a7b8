import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

/// A page of intentions costs one page whatever the history: counted in SQLite's steps, not timed.
@Suite("Intentions a page at a time")
struct IntentionPageTests {
    /// `days` days of day intentions (and a week's every seventh day), written in one statement.
    static func store(days: Int) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        try db.writer.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
                    INSERT INTO intention (id, text, scope, date, created_at, updated_at, ai_generated, ai_rephrased)
                    SELECT printf('%08X-0000-4000-8000-%012X', i, i), CASE WHEN i % 100 = 7 THEN 'Crème brûlée ' || i ELSE 'Write ' || i END,
                        'day', date('1970-01-01', '+' || i || ' days'), i * 1000, i * 1000, 0, 0 FROM n;
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
                    INSERT INTO intention (id, text, scope, date, created_at, updated_at, ai_generated, ai_rephrased)
                    SELECT printf('%08X-0000-4000-9000-%012X', i, i), 'Week ' || i, 'week', date('1970-01-01', '+' || i || ' days'),
                        i * 1000, i * 1000 + 1, 0, 0 FROM n WHERE i % 7 = 0;
                    """, arguments: [days, days])
        }
        return db
    }

    @Test("the newest page, the deepest one and a search cost the same at 20,000 days as at 1,000")
    func flat() throws {
        var steps: [Int64] = []
        for days in [1_000, 20_000] {
            let db = try Self.store(days: days)
            let newest = try db.intentions.page(limit: 50)
            #expect(newest.count == 50 && newest.first?.text.hasSuffix(" \(days - 1)") == true, "\(newest.first?.text ?? "")")
            // Deep in the history: after the cursor of an old intention, one page.
            let deep = try #require(try db.intentions.page(from: LocalDay("1970-03-01"), to: LocalDay("1970-03-01")).first)
            steps.append(
                try SQLiteWork.of(db) {
                    _ = try db.intentions.page(limit: 50)
                    _ = try db.intentions.page(after: IntentionCursor(after: deep), limit: 50)
                    _ = try db.intentions.page(scope: .week, limit: 20)
                })
        }
        #expect(steps[1] < steps[0] * 3 / 2, "steps at 1,000 and 20,000 days: \(steps)")
    }

    @Test("walking the cursor lists every intention once, newest first, with every filter and a folded search")
    func walk() throws {
        let db = try Self.store(days: 400)
        let all = try db.intentions.all()
        var walked: [Intention] = []
        var after: IntentionCursor?
        while true {
            let page = try db.intentions.page(after: after, limit: 37)
            walked += page
            guard page.count == 37, let last = page.last else { break }
            after = IntentionCursor(after: last)
        }
        #expect(walked.map(\.id) == all.map(\.id))
        let found = try db.intentions.page(matching: "creme brulee", limit: 3)
        #expect(found.map(\.text) == ["Crème brûlée 307", "Crème brûlée 207", "Crème brûlée 107"])
        let rest = try db.intentions.page(matching: "creme brulee", after: found.last.map(IntentionCursor.init(after:)), limit: 3)
        #expect(rest.map(\.text) == ["Crème brûlée 7"])
        #expect(try db.intentions.page(scope: .week, limit: 1000).count == 58)
        #expect(try db.intentions.page(matching: "  ").isEmpty)
        #expect(throws: InvalidField.self) { try db.intentions.page(limit: 0) }
        #expect(throws: InvalidField.self) { try IntentionCursor(validating: "yesterday") }
    }
}
