import Foundation
import GRDB
import GroveCore

/// Where a file of focus sessions comes from (`grove import --from`).
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    /// Grove's own export: the JSON document (everything) or the CSV of sessions.
    case grove
    /// Any CSV of sessions, its columns named by a `ColumnMap`.
    case csv
    /// `timew export`: intervals with tags.
    case timewarrior
    /// The Forest app's CSV export (`Start Time,End Time,Tag,Note,Tree Type,Is Success`, instants as
    /// Java writes them: `Sat Jun 15 08:07:54 GMT+01:00 2019`): a `csv` import with `ColumnMap.forest`.
    case forest
}
