import Foundation
import GRDB
import GroveCore

/// Which columns of a CSV hold what (`--map start=Start,end=End,tag=Tag`). `start` is required, and
/// `end` or `duration` (seconds, or H:MM[:SS]).
public struct ColumnMap: Sendable, Equatable {
    public var start: String
    public var end: String?
    public var duration: String?
    public var tag: String?
    /// A column whose "false", "no", "0", "abandoned", "failed" marks a session that did not finish,
    /// and "true", "yes", "1", "completed", "success" one that did (anything else is refused).
    public var completed: String?

    /// Whether a `completed` cell says the session finished; nil when it says neither.
    public static func finished(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "yes", "1", "completed", "complete", "success", "succeeded", "done": true
        case "false", "no", "0", "abandoned", "failed", "fail", "withered": false
        default: nil
        }
    }

    public static let keys = ["start", "end", "duration", "tag", "completed"]

    /// The Forest app's export, as its columns are known from public sources (no export made by the
    /// app itself was at hand): a withered tree (`Is Success` false) is an abandoned session.
    public static let forest = ColumnMap(start: "Start Time", end: "End Time", tag: "Tag", completed: "Is Success")

    public init(start: String, end: String? = nil, duration: String? = nil, tag: String? = nil, completed: String? = nil) {
        self.start = start
        self.end = end
        self.duration = duration
        self.tag = tag
        self.completed = completed
    }

    /// Reads `start=Start,end=End,tag=Tag` (column names as the file's header has them).
    public static func parse(_ text: String) throws -> ColumnMap {
        var pairs: [String: String] = [:]
        for part in text.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, !kv[1].isEmpty, keys.contains(kv[0]), pairs[kv[0]] == nil else {
                throw InvalidField(
                    "map",
                    "map must be key=Column pairs separated by commas, keys among \(keys.joined(separator: ", ")), each once (got \(part.quotedForMessage))"
                )
            }
            pairs[kv[0]] = kv[1]
        }
        guard let start = pairs["start"], pairs["end"] != nil || pairs["duration"] != nil else {
            throw InvalidField("map", "map needs start= and end= or duration= (e.g. start=Start,end=End)")
        }
        return ColumnMap(start: start, end: pairs["end"], duration: pairs["duration"], tag: pairs["tag"], completed: pairs["completed"])
    }
}
