import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct PausePage: Encodable {
    var title: String
    var bare = true
    var app: AppView
    /// False when the app's gate is off: the page lets the person through without a pause.
    var gated: Bool
    /// Where Proceed goes: the address asked for (one of the app's pages), else the app's web URL.
    var target: String
    var attemptsToday: Int
    var firstVisit: Bool
    var times: String
    /// Reached otherwise than from the gated site itself (a link on another site, a typed address, a
    /// bookmark): nothing is counted until the person starts the pause. `confirmReason` says how.
    var confirm = false
    var confirmReason = ""
    /// A focus session is growing: the page says so first (as Forest does, leaving costs the tree),
    /// and counts nothing unless the person lets it wither. `growingLeft` is where it stands ("25:00 left", "12:34 so far").
    var growing = false
    /// The person chose the app over the growing tree: the pause this page opens lets it wither.
    var wither = false
    var growingLeft = ""
    /// "Why are you opening this?", asked in turn (`PauseReason.asks`), with its answers.
    var why: WhyView?
    /// Sent back by the extension after the person's minutes on the site: how long it has been.
    var reminder: String?
    /// Today's intention and what the growing tree is for (`GateIntent.lines`), shown before the pause.
    var intent: [String] = []
    /// The app's scheduled block is in force: no pause, nothing counted; the week's emergency pass
    /// (`passLeft`) reloads the page with `emergency=1`, whose pause then uses it (`emergency`).
    var blocked = false
    var blockedUntil = ""
    var blockSchedule = ""
    var passLeft = false
    var passNext = ""
    var emergency = false
    var emergencyLink = ""
}

/// The "why" question as the gateway shows it.
struct WhyView: Encodable {
    struct Answer: Encodable { var reason: String; var label: String; var reply: String }
    var question: String
    var answers: [Answer]

    init(appName: String, intent: GateIntent) {
        question = PauseReason.question(appName)
        answers = intent.answers.map { Answer(reason: $0.reason.rawValue, label: $0.label, reply: $0.reply) }
    }
}

extension WebController {
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")

    /// The gateway: `to` is where the person was going (kept only if it is one of the app's pages);
    /// `session` is the pause this page already shows (a reload: no new attempt, the same countdown).
    func gateway(_ id: String, request: Request) throws -> PausePage {
        guard let app = try database.pause.app(id: id) else { throw PauseValidationError.unknownApp(id) }
        let target = request.queryString("to").flatMap { app.owns($0) ? $0 : nil } ?? app.webURL ?? ""
        let shown = try request.queryString("session").flatMap(UUID.init(uuidString:)).flatMap { try database.pause.session(id: $0) }
            .flatMap { $0.appId == id ? $0 : nil }
        let attempts = try database.pause.attemptsToday(appId: id, before: shown?.startTimestamp)
        // An attempt is counted at once only when the person was on their way to the app: the
        // extension's redirect (it carries the key only the extension can read) or Grove's own links
        // ("same-origin" in `Sec-Fetch-Site`). A link on another site could fill the statistics, and a
        // typed address or a bookmark is a look at the gate, not an attempt to open the app: it would
        // count a pause and "time saved" for an app nobody was opening. The page asks first.
        let site = Self.fetchSite.flatMap { request.headers[$0] }?.lowercased() ?? ""
        let onTheWay = request.queryString("key") == configuration.gateKey || site == "same-origin"
        let confirmReason = ["cross-site", "same-site"].contains(site) ? "Another site sent you here." : "You opened this page yourself."
        // A pause already shown (a reload) goes on; a new one waits behind the growing tree.
        // "Let it wither and open": this page's own link (same-origin) asks the pause to wither the tree
        // in the same step as it opens (`PauseRoom.open(letTreeWither:)`).
        let wither = shown == nil && request.queryString("wither") == "1" && site == "same-origin"
        let growing =
            try shown == nil && !wither
            ? database.focus.current().flatMap { $0.state == .active && !app.isAllowed(duringSessionTagged: $0.tags) ? $0 : nil } : nil
        let left = try growing.map { $0.timeText(at: try database.focus.now(for: $0)) } ?? ""
        // The extension's reminder: whole minutes from 1 to a day, else none (the address is anyone's to write).
        let minutes = request.queryString("reminder").flatMap(Double.init).flatMap { $0.isFinite ? Int(exactly: $0.rounded(.up)) : nil }
        let reminder = minutes.flatMap { (1...1440).contains($0) ? $0 : nil }.map {
            "You have been on \(app.displayName) for \($0) minute\($0 == 1 ? "" : "s")."
        }
        let intent = try database.pause.intent()
        let block = try shown == nil && growing == nil ? database.pause.activeBlock(appId: id) : nil
        let pass = try block.map { _ in try database.pause.emergencyPass() }
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        let emergency = block != nil && pass?.available == true && request.queryString("emergency") == "1"
        var page = PausePage(
            title: app.isEnabled ? "Pause before \(app.displayName)" : app.displayName, app: app.view, gated: app.isEnabled,
            target: target, attemptsToday: attempts, firstVisit: attempts == 0, times: attempts == 1 ? "time" : "times",
            confirm: app.isEnabled && shown == nil && !onTheWay, confirmReason: confirmReason,
            growing: app.isEnabled && growing != nil, growingLeft: left,
            why: PauseReason.asks(attemptsToday: attempts) ? WhyView(appName: app.displayName, intent: intent) : nil, reminder: reminder,
            intent: intent.lines)
        page.blocked = block != nil && !emergency
        page.blockedUntil = block.map { calendar.wallText($0.end, today: today) } ?? ""
        page.blockSchedule = app.blockSchedule?.description ?? ""
        page.passLeft = pass?.available == true
        page.passNext = pass.map { calendar.wallText($0.nextAt, today: today) } ?? ""
        page.emergency = emergency
        page.wither = wither
        var link = URLComponents()
        link.queryItems = (target.isEmpty ? [] : [URLQueryItem(name: "to", value: target)]) + [URLQueryItem(name: "emergency", value: "1")]
        page.emergencyLink = link.string ?? "?emergency=1"
        return page
    }
}
