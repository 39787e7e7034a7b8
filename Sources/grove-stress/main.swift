// A crash-test helper for the store's durability tests; not installed for users.
//
//   grove-stress write DB COUNT     inserts COUNT focus sessions one transaction each, printing
//                                   "ack <id>" after each commit returns (so an acknowledged id
//                                   must survive a SIGKILL at any moment).
import Foundation
import GroveCore
import GroveStore


let arguments = CommandLine.arguments
guard arguments.count == 4, arguments[1] == "write", let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: grove-stress write DB COUNT\n".utf8))
    exit(64)
}
do {
    let database = try AppDatabase.open(path: arguments[2])
    let zone = TimeZone(identifier: "UTC")!
    let calendar = ZonedCalendar(timeZone: zone)
    let base = Date(timeIntervalSince1970: 1_700_000_000)
    for i in 0..<count {
        let start = base.addingTimeInterval(TimeInterval(i * 60))
        let end = start.addingTimeInterval(25)
        let session = FocusSession(id: UUID(), startTime: start, endTime: end, state: .completed, duration: 25, plannedDuration: 25,
                                   timeZoneIdentifier: zone.identifier, endDay: calendar.localDay(of: end))
        try database.insertFocusSessions([session])
        FileHandle.standardOutput.write(Data("ack \(session.id.uuidString)\n".utf8))  // unbuffered: the ack leaves before the next write
    }
} catch {
    FileHandle.standardError.write(Data("grove-stress: \(error)\n".utf8))
    exit(1)
}
