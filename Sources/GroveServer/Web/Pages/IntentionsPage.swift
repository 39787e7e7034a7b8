import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct ThemeChoice: Encodable { var id: String; var name: String }

struct IntentionLine: Encodable { var id: String; var text: String; var scope: String; var date: String }

struct IntentionsPage: Encodable {
    var title: String
    var bare = false
    var query: String
    var today: String
    var themes: [ThemeChoice]
    /// The font menu (the theme's or the preferred font by default), as `grove intention set --font`.
    var fonts: [FontOption]
    var items: [IntentionLine]
    /// Today's intentions as cards, day first.
    var cards: [IntentionCardView]
}

extension WebController {
    func intentions(query: String?) throws -> IntentionsPage {
        let list = try database.intentions.page(matching: query, limit: 200)
        let calendar = try database.calendar()
        return IntentionsPage(
            title: "Intentions", query: query ?? "", today: calendar.localDay(of: database.environment.now()).description,
            themes: try database.themes.all().map { ThemeChoice(id: $0.id.uuidString, name: $0.name) },
            fonts: Self.fontOptions(selected: nil),
            items: list.map {
                IntentionLine(
                    id: $0.id.uuidString, text: $0.text, scope: $0.scope.rawValue,
                    date: $0.scope.periodLabel(containing: $0.date, calendar: calendar))
            },
            cards: try intentionCards(elementID: "current-intention", rephrasable: true))
    }
}
