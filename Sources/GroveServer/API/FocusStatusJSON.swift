import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `FocusStatusReport`'s JSON for one open session, the same bytes as `GroveExport.makeEncoder` gives:
/// the session and its due instant encoded once, the live figures (a few numbers) written per request,
/// so that a page polling its countdown costs no encoder run.
struct FocusStatusJSON: Sendable {
    let session: FocusSession?
    let anchor: ClockReading?
    /// The break after the last tree, when no session runs.
    let pause: FocusBreak?
    private let dueAt: String
    private let sessionJSON: String

    static let none = Data("{}".utf8)

    init(_ session: FocusSession, anchor: ClockReading?) throws {
        self.session = session
        self.anchor = anchor
        pause = nil
        let encoder = GroveExport.makeEncoder(pretty: false)
        sessionJSON = String(decoding: try encoder.encode(session), as: UTF8.self)
        dueAt = try session.dueAt.map { String(decoding: try encoder.encode($0), as: UTF8.self) } ?? "null"
    }

    /// No session: the break running after the last tree (a few requests a break: encoded each time),
    /// measured from `anchor` like a session.
    init(break pause: FocusBreak, anchor: ClockReading?) {
        session = nil
        self.anchor = anchor
        self.pause = pause
        dueAt = "null"
        sessionJSON = "null"
    }

    /// The report at `now`, keys sorted as the encoder sorts them.
    func encoded(now: Date) -> Data {
        guard let session else {
            let report = FocusStatusReport(nil, now: now, break: pause)
            return (try? GroveExport.makeEncoder(pretty: false).encode(report)) ?? Self.none
        }
        let report = FocusStatusReport(session, now: now)
        var text = "{"
        if session.dueAt != nil { text += "\"dueAt\":\(dueAt)," }
        text += "\"focusTime\":\(Self.number(report.focusTime ?? 0)),\"progress\":\(Self.number(report.progress ?? 0)),"
        text +=
            "\"remaining\":\(report.remaining.map(Self.number) ?? "null"),\"session\":\(sessionJSON),\"treeStage\":\(report.treeStage?.rawValue ?? 1)}"
        return Data(text.utf8)
    }

    /// A number as JSONEncoder writes a Double: its shortest form, a whole number without ".0".
    static func number(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
