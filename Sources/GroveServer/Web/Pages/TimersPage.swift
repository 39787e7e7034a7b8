import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct TimerView: Encodable {
    var id: String
    var name: String
    var seconds: Int
    var formatted: String
    var color: String
    var icon: String
    var notes: String
    var done: Int
    var count: Int
    var todos: [TodoView]
    /// What the edit form shows: the drawing of the icon (its id in `icons.svg`) and its word, the
    /// length in minutes, the colour as `<input type=color>` wants it (lower case), and the icons to
    /// choose from.
    var symbol = "icon-timer"
    var iconLabel = "Timer"
    var minutes = "25"
    var colorInput = "#007aff"
    var icons: [IconOption] = []
}

struct IconOption: Encodable { var name: String; var label: String; var selected: Bool }

struct TimersPage: Encodable {
    /// One way to list the timers (`?sort=`, `?incomplete=true`), as the CLI's `grove timer list` offers.
    struct View: Encodable { var label: String; var link: String; var current: Bool }
    var title: String
    var bare = false
    var timers: [TimerView]
    var empty: Bool
    /// Only timers with unfinished to-dos are listed.
    var filtered: Bool
    var views: [View]
}

extension WebController {
    func timers(order: AppDatabase.TimerOrder, incompleteOnly: Bool) throws -> TimersPage {
        let items = try database.timers.all(orderedBy: order, incompleteOnly: incompleteOnly).map { t in
            let icon = TimerIcon.choice(t.icon)
            return TimerView(
                id: t.id.uuidString, name: t.name, seconds: t.durationInSeconds, formatted: t.formattedDuration, color: t.colorHex,
                icon: t.icon,
                notes: t.notes ?? "", done: t.todoItems.filter(\.isCompleted).count, count: t.todoItems.count,
                todos: t.todoItems.enumerated().map {
                    TodoView(
                        id: $0.element.id.uuidString, timerId: t.id.uuidString, text: $0.element.text, done: $0.element.isCompleted,
                        n: $0.offset + 1)
                },
                symbol: icon.symbol, iconLabel: icon.label,
                minutes: t.durationInSeconds % 60 == 0 ? String(t.durationInSeconds / 60) : String(Double(t.durationInSeconds) / 60),
                colorInput: t.colorHex.lowercased(),
                icons: (TimerIcon.choices.contains { $0.name == t.icon }
                    ? [] : [IconOption(name: t.icon, label: t.icon, selected: true)])
                    + TimerIcon.choices.map { IconOption(name: $0.name, label: $0.label, selected: $0.name == t.icon) })
        }
        let views = [
            ("Newest first", "createdAt", false), ("By name", "name", false), ("Unfinished to-dos", "createdAt", true),
            ("Unfinished, by name", "name", true),
        ]
        .map {
            TimersPage.View(
                label: $0.0, link: "/timers?sort=\($0.1)\($0.2 ? "&incomplete=true" : "")",
                current: $0.1 == order.rawValue && $0.2 == incompleteOnly)
        }
        return TimersPage(title: "Timers", timers: items, empty: items.isEmpty, filtered: incompleteOnly, views: views)
    }
}
