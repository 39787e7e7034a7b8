import GRDB
import GroveCore

/// The per-day and per-day-per-tag totals (`focus_day`, `focus_day_tag`) of sessions a bulk insert
/// added while the per-day triggers were set aside, summed in memory and added to the tables in one
/// statement per day (and per tag and day) — what the triggers would have added, without a trigger
/// program run per row and without recounting the sessions stored before the import.
///
/// Memory stays bounded: past `limit` entries the sums so far are added to the tables and the
/// counting starts again (the additions commute).
struct AddedDayTotals {
    struct Sums {
        var trees: Int64 = 0
        var abandoned: Int64 = 0
        var focusMillis: Int64 = 0
    }

    struct TagDay: Hashable {
        var tag: String
        var day: String
    }

    private var days: [String: Sums] = [:]
    private var tagDays: [TagDay: Sums] = [:]
    /// Entries held before they are written out.
    let limit: Int

    /// 8,192 entries (a few hundred KiB, however they grow): a million-session import over forty
    /// years writes its sums out a few times, and stays within its 64 MiB.
    init(limit: Int = 8_192) {
        self.limit = limit
    }

    /// Counts one inserted session as the insert triggers do: a finished session under the day it
    /// ended, each of its tags once. Writes the sums out when there are too many to hold.
    mutating func add(_ session: FocusSession, _ db: Database) throws {
        guard let endDay = session.endDay else { return }
        var sums = Sums()
        switch session.state {
        case .completed:
            sums.trees = 1
            sums.focusMillis = session.duration.groveMillis
        case .abandoned:
            sums.abandoned = 1
        case .active, .paused:
            break
        }
        let day = endDay.description
        days[day, default: Sums()].add(sums)
        // Each tag once (as the triggers' DISTINCT); no set made for the usual one tag or none.
        for tag in session.tags.count < 2 ? session.tags : Array(Set(session.tags)) {
            tagDays[TagDay(tag: tag, day: day), default: Sums()].add(sums)
        }
        if days.count + tagDays.count >= limit { try write(db) }
    }

    /// Adds the sums to the tables and forgets them.
    mutating func write(_ db: Database) throws {
        if !days.isEmpty {
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO focus_day (day, trees, abandoned, focus_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT (day) DO UPDATE SET trees = trees + excluded.trees,
                        abandoned = abandoned + excluded.abandoned, focus_ms = focus_ms + excluded.focus_ms
                    """)
            for (day, sums) in days { try statement.execute(arguments: [day, sums.trees, sums.abandoned, sums.focusMillis]) }
        }
        if !tagDays.isEmpty {
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO focus_day_tag (tag, day, trees, abandoned, focus_ms) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (tag, day) DO UPDATE SET trees = trees + excluded.trees,
                        abandoned = abandoned + excluded.abandoned, focus_ms = focus_ms + excluded.focus_ms
                    """)
            for (key, sums) in tagDays {
                try statement.execute(arguments: [key.tag, key.day, sums.trees, sums.abandoned, sums.focusMillis])
            }
        }
        days.removeAll()
        tagDays.removeAll()
    }
}

extension AddedDayTotals.Sums {
    mutating func add(_ other: Self) {
        trees += other.trees
        abandoned += other.abandoned
        focusMillis += other.focusMillis
    }
}
