import Foundation
import GroveCore
import GroveStore

struct LoginPage: Encodable {
    var title = "Log in"
    var bare = true
    var next: String
    /// Whether `grove serve password` set one (else the token logs in).
    var hasPassword: Bool
    var error: String?
}

/// What the login form posts (`application/x-www-form-urlencoded`, read by Hummingbird's decoder).
struct LoginForm: Decodable {
    var password: String?
    /// The form before passwords: the token.
    var token: String?
    var next: String?
}

/// The browsers signed in from elsewhere than this machine, with "sign out" for each and for all.
struct BrowsersPage: Encodable {
    struct Row: Encodable {
        var id: String
        var shortId: String
        var browser: String
        var address: String
        var created: String
        var lastSeen: String
        var current: Bool
    }
    var title = "Signed-in browsers"
    var rows: [Row]
    /// Stored: the templates read a page's stored properties (by reflection), not computed ones.
    var any: Bool

    init(_ sessions: [WebSession], current: String?) {
        let format = Date.ISO8601FormatStyle(timeZone: .current).year().month().day().time(includingFractionalSeconds: false)
        rows = sessions.map {
            Row(
                id: $0.id, shortId: String($0.id.prefix(12)), browser: Self.describe($0.userAgent), address: $0.address,
                created: $0.created.formatted(format), lastSeen: $0.lastSeen.formatted(format), current: $0.id == current)
        }
        any = !rows.isEmpty
    }

    /// "Chrome on Android" from a user agent; the agent itself, cut, when it names neither.
    static func describe(_ agent: String) -> String {
        let browsers = [("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
        let systems = [
            ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Mac OS X", "macOS"), ("Windows", "Windows"),
            ("Linux", "Linux"),
        ]
        let browser = browsers.first { agent.contains($0.0) }?.1, system = systems.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return system
        default: return String(agent.prefix(60))
        }
    }
}
