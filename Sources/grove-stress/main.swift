// A crash-test helper for the store's durability tests; not installed for users.
//
//   grove-stress write DB COUNT [THREADS]
//       inserts COUNT focus sessions per thread (1 thread unless THREADS), one write each, printing
//       "ack <id>" after each write returns (so an acknowledged id must survive a SIGKILL at any
//       moment). Several threads write at once, so their writes share commits (group commit).
import Foundation
import GroveCore
import GroveStore

let arguments = CommandLine.arguments
guard (4...5).contains(arguments.count), arguments[1] == "write", let count = Int(arguments[3]),
    let threads = arguments.count == 5 ? Int(arguments[4]) : 1, (1...64).contains(threads)
else {
    FileHandle.standardError.write(Data("usage: grove-stress write DB COUNT [THREADS 1-64]\n".utf8))
    exit(64)
}
do {
    let database = try AppDatabase.open(path: arguments[2])
    let zone = TimeZone(identifier: "UTC") ?? TimeZone.current
    let calendar = ZonedCalendar(timeZone: zone)
    let base = Date(timeIntervalSince1970: 1_700_000_000)
    let output = NSLock()
    // Threads of their own: a dispatch pool would run only as many at once as there are cores.
    let done = DispatchGroup()
    for thread in 0..<threads {
        done.enter()
        Thread {
            defer { done.leave() }
            for i in 0..<count {
                let start = base.addingTimeInterval(TimeInterval((i * threads + thread) * 60))
                let end = start.addingTimeInterval(25)
                let session = FocusSession(
                    id: UUID(), startTime: start, endTime: end, state: .completed, duration: 25, plannedDuration: 25,
                    timeZoneIdentifier: zone.identifier, endDay: calendar.localDay(of: end))
                do {
                    try database.focus.insert([session])
                } catch {
                    FileHandle.standardError.write(Data("grove-stress: \(error)\n".utf8))
                    exit(1)
                }
                // Unbuffered, whole lines: the ack leaves before this thread's next write.
                output.withLock { FileHandle.standardOutput.write(Data("ack \(session.id.uuidString)\n".utf8)) }
            }
        }.start()
    }
    done.wait()
} catch {
    FileHandle.standardError.write(Data("grove-stress: \(error)\n".utf8))
    exit(1)
}
