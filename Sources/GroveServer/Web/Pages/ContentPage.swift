import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct ContentPage: Encodable {
    struct Item: Encodable {
        var id: String; var text: String; var author: String?; var type: String; var category: String; var timesShown: Int;
        var timesWord: String; var bundled: Bool; var source: String?
    }
    var title = "Content"
    var bare = false
    var category: String?
    var categories: [CategoryView]
    var items: [Item]
    /// Content packs from the web, with when each was last fetched (in the store's zone) and why the last check failed.
    struct Source: Encodable { var url: String; var items: String; var fetched: String?; var error: String? }
    var sources: [Source]
    var hasSources: Bool
}

extension WebController {
    /// The content library, one category or all; a category that does not exist is a 400 naming it.
    func content(category: MindfulnessContent.ContentCategory?) throws -> ContentPage {
        let items = try database.content.all(category: category).map { c in
            ContentPage.Item(
                id: c.id, text: c.text, author: c.author, type: c.type.rawValue, category: c.category.displayName, timesShown: c.timesShown,
                timesWord: c.timesShown == 1 ? "time" : "times", bundled: c.isBundled || c.source != nil,
                source: c.source.flatMap { URLComponents(string: $0)?.host })
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try database.calendar().timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let sources = try database.content.sources().map { s in
            ContentPage.Source(
                url: s.url, items: "\(s.itemCount) item\(s.itemCount == 1 ? "" : "s")", fetched: s.lastFetched.map(formatter.string(from:)),
                error: s.lastError)
        }
        return ContentPage(
            category: category?.rawValue,
            categories: MindfulnessContent.ContentCategory.allCases.map {
                CategoryView(id: $0.rawValue, name: $0.displayName, selected: $0 == category)
            }, items: items, sources: sources, hasSources: !sources.isEmpty)
    }
}
