import Foundation
import GroveCore
import GroveStore

/// How `grove focus pause` and `resume` report the session they changed.
enum FocusReport {
    /// "Paused: 12:30 left." ("Paused: 12:34 so far." when open-ended), or the session as JSON.
    static func show(_ session: FocusSession, db: AppDatabase, options: GlobalOptions, verb: String) throws {
        let now = try db.focus.now(for: session)
        if options.json { return try Output.json(FocusStatusReport(session, now: now)) }
        print("\(verb): \(session.timeText(at: now)).")
    }
}
