import GroveCore
import GroveStore

/// A source's check as the API and `--json` show it: `status` is `updated`, `unchanged` or `failed`.
public struct ContentRefreshJSON: Encodable, Sendable {
    public var url: String
    public var status: String
    public var added: Int?
    public var updated: Int?
    public var retired: Int?
    public var removed: Int?
    public var skipped: [ContentPack.Skipped]?
    public var message: String?

    public init(_ outcome: ContentRefresher.Outcome) {
        url = outcome.url
        switch outcome.result {
        case .updated(let report):
            status = "updated"
            (added, updated, retired, removed, skipped) = (report.added, report.updated, report.retired, report.removed, report.skipped)
        case .unchanged:
            status = "unchanged"
        case .failed(let text):
            status = "failed"
            message = text
        }
    }
}
