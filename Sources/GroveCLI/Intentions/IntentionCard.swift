import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// An intention drawn as a card in its theme's colours.
enum IntentionCard {
    /// The card, labelled with its period ("Week · Week of 16–22 Nov") under `calendar`'s week rule.
    static func render(_ intention: Intention, theme: IntentionTheme?, calendar: ZonedCalendar, traits: TerminalTraits) -> String {
        let style = Style(traits)
        let width = min(60, max(24, traits.width - 4))
        let label = "\(intention.scope.displayName) · \(intention.scope.periodLabel(containing: intention.date, calendar: calendar))"
        var body = Wrap.lines(intention.text, width: width - 4)
        if let quote = intention.quote { body += [""] + Wrap.lines("“\(quote)”", width: width - 4) }
        let rows = [""] + [label] + [""] + body + [""]
        let fg = theme?.textColor ?? "#000000", bg = theme?.backgroundColor
        return rows.map { row in
            let padded = "  " + row + String(repeating: " ", count: max(0, width - 2 - row.count))
            return traits.color && bg != nil
                ? style.colors(padded, foreground: row == label ? (theme?.readableAccent ?? fg) : fg, background: bg) : "│" + padded + "│"
        }.joined(separator: "\n")
    }
}
