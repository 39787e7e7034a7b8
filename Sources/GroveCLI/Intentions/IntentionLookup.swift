import Foundation
import GroveCore
import GroveStore

/// An intention named on the command line by its id or the id's first characters (at least 4).
enum IntentionLookup {
    static func find(_ id: String, in db: AppDatabase) throws -> Intention {
        let matches = try db.intentions.all(idPrefix: id)
        guard matches.count == 1, id.count >= 4 else {
            throw matches.count > 1 ? InvalidField("id", "\"\(id)\" matches several intentions") as Error : NotFoundError("intention", id)
        }
        return matches[0]
    }
}
