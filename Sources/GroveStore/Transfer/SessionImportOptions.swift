import Foundation
import GroveCore

/// What an import of sessions from a file reads, checked once for every face (`grove import --from
/// --map --zone`, `POST /api/v1/import/sessions?from=&map=&zone=`): the format, and for another
/// app's CSV its columns and the zone of times written without an offset.
public struct SessionImportOptions: Sendable, Equatable {
    public let format: ImportFormat
    public let columns: ColumnMap?
    public let zone: TimeZone?

    /// Reads the three as a person or a page gives them; a value or combination outside the rules is
    /// refused naming its field (`from`, `map`, `zone`), in the same words on every face.
    public init(validating format: String?, map: String?, zone: String?) throws {
        guard let parsed = ImportFormat(rawValue: (format ?? "grove").lowercased()) else {
            throw InvalidField(
                "from",
                "from must be one of \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")) (got \((format ?? "").quotedForMessage))"
            )
        }
        if parsed != .csv, map != nil { throw InvalidField("map", "map is for from csv (another app's CSV)") }
        if parsed != .csv, parsed != .forest, zone != nil { throw InvalidField("zone", "zone is for from csv and from forest") }
        guard parsed != .csv || map != nil else { throw InvalidField("map", "from csv needs map, e.g. start=Start,end=End") }
        self.format = parsed
        self.columns = try map.map(ColumnMap.parse)
        self.zone = try zone.map { name in
            guard let calendar = try? ZonedCalendar(validating: name) else {
                throw InvalidField("zone", "zone must be a time zone such as Europe/Berlin or UTC (got \(name.quotedForMessage))")
            }
            return calendar.timeZone
        }
    }
}

extension TransferRoom {
    /// Imports the sessions of a file in `options.format`, streamed in one transaction: the one
    /// dispatch the CLI and the API share. (`grove` here is Grove's CSV; Grove's JSON export is
    /// `importJSON(streamingFrom:)`.)
    public func importSessions(_ options: SessionImportOptions, streamingFrom read: @escaping () throws -> [UInt8]?) throws
        -> ForeignImportReport
    {
        switch options.format {
        case .grove: try importGroveCSV(streamingFrom: read)
        case .timewarrior: try importTimewarrior(streamingFrom: read)
        case .csv: try importCSV(map: options.columns ?? ColumnMap(start: "start", end: "end"), zone: options.zone, streamingFrom: read)
        case .forest: try importCSV(map: .forest, zone: options.zone, format: .forest, streamingFrom: read)
        }
    }
}
