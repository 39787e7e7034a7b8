import Foundation
import GroveTestSupport
import PropertyBased
import Testing

@testable import GroveCore

/// Strings drawn from an alphabet chosen to hit parsers where they break: digits (ASCII and not),
/// separators, signs, exponents, combining marks, emoji, NUL and control characters.
enum Hostile {
    static let alphabet: [Character] =
        Array("0123456789-:.+TtZz #/_aAfFxXeEinf ") + ["٣", "é", "e\u{301}", "👍", "👨‍👩‍👧", "\u{0}", "\u{7F}", "\n", "\u{3000}", "\\"]

    /// Strings of 0…`length` characters from `alphabet`.
    static func strings(_ alphabet: [Character] = alphabet, length: ClosedRange<Int> = 0...30) -> Generator<
        String, Generator<Int, Shrink.Integer<Int>>.ArrayShrink
    > {
        Gen.int(in: 0...(alphabet.count - 1)).array(of: length).map { String($0.map { alphabet[$0] }) }
    }
}

@Suite("Property checks of GroveCore's parsers and validators", .heavy)
struct PropertyTests {
    @Test func localDaysParseOnlyRealDatesAndRoundTrip() async {
        await propertyCheck(count: 500, input: Hostile.strings(Array("0123456789-"), length: 8...12)) { text in
            if let day = LocalDay(text) {
                #expect(day.description == text)
                #expect(LocalDay(dayNumber: day.dayNumber) == day)
            }
        }
        await propertyCheck(count: 500, input: Gen.int(in: LocalDay.earliest.dayNumber...LocalDay.latest.dayNumber)) { number in
            let day = LocalDay(dayNumber: number)
            #expect(day.dayNumber == number)
            #expect(LocalDay(day.description) == day)
        }
    }

    @Test func timesOfDayAreTwoDigitHoursAndMinutesInRange() async {
        await propertyCheck(count: 500, input: Hostile.strings(Array("0123456789:"), length: 0...6)) { text in
            guard let time = TimeOfDay(text) else { return }
            #expect((0...23).contains(time.hour) && (0...59).contains(time.minute))
        }
    }

    @Test func hexTextIsTwoLowercaseDigitsPerByteAsPrintfWritesThem() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...255).array(of: 0...40)) { values in
            let bytes = values.map { UInt8($0) }
            #expect(Hex.string(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        }
        let token = Hex.random(bytes: 32)
        #expect(token.utf8.count == 64 && token.allSatisfy { "0123456789abcdef".contains($0) } && token != Hex.random(bytes: 32))
    }

    @Test func hexColoursAreExactlyHashAndSixHexDigits() async {
        let alphabet = Array("#0123456789abcdefABCDEFgG ")
        await propertyCheck(count: 1000, input: Hostile.strings(alphabet, length: 0...9)) { text in
            let expected = text.utf8.count == 7 && text.first == "#" && text.dropFirst().allSatisfy { $0.isHexDigit && $0.isASCII }
            #expect(HexColor.isValid(text) == expected, "\(text)")
        }
    }

    @Test func appIdsFollowTheSchemaRule() async {
        await propertyCheck(count: 1000, input: Hostile.strings(Array("abz09-_A é"), length: 0...70)) { id in
            // The schema's CHECK: 1…64 of [a-z0-9-], not starting or ending with "-"; Grove also refuses "--".
            let schema =
                (1...64).contains(id.unicodeScalars.count)
                && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
                && !id.hasPrefix("-") && !id.hasSuffix("-")
            if SocialApp.isValidID(id) { #expect(schema, "\(id) passes validation but not the schema") }
        }
    }

    @Test func zoneIdentifiersFromInputNeverReachOtherFiles() async {
        await propertyCheck(count: 500, input: Hostile.strings(Array("./etcpasdvzroUTCAmerica_York"), length: 0...40)) { text in
            let zone = ZonedCalendar.zone(text)
            if text.contains("..") || text.hasPrefix("/") || text.contains("//") { #expect(zone == nil, "\(text)") }
        }
        #expect(ZonedCalendar.zone("America/New_York") != nil)
        #expect(ZonedCalendar.zone("../../../../dev/zero") == nil)
        #expect(ZonedCalendar.zone(String(repeating: "A", count: 65)) == nil)
    }

    @Test func durationsFormatForAnyNumberWithoutTrapping() async {
        await propertyCheck(count: 500, input: Gen.double(in: -1e300...1e300)) { value in
            _ = ForestStats.formatDuration(value)
        }
        for value in [Double.infinity, -.infinity, .nan, .greatestFiniteMagnitude, -0.0] { _ = ForestStats.formatDuration(value) }
        #expect(ForestStats.formatDuration(3900) == "1h 5m")
    }

    @Test func storedLengthCountsWhatSQLiteCounts() async {
        await propertyCheck(count: 300, input: Hostile.strings(length: 0...50)) { text in
            #expect(text.storedLength == text.unicodeScalars.count)
            #expect(text.storedLength >= text.count)
        }
    }

    /// Every text rule counts as the store does: text that passes validation is within the schema's
    /// limits when measured in scalars.
    @Test func textValidationAgreesWithTheSchemaLimits() async {
        let alphabet: [Character] = ["a", " ", "👨‍👩‍👧‍👦", "e\u{301}", "\u{0}"]
        await propertyCheck(count: 300, input: Hostile.strings(alphabet, length: 0...120)) { name in
            let timer = NamedTimer(id: UUID(), name: name, durationInSeconds: 60, createdAt: Date(timeIntervalSince1970: 0))
            if timer.isValid { #expect(name.unicodeScalars.count <= 100 && !name.unicodeScalars.contains("\u{0}")) }
            let todo = TodoItem(id: UUID(), text: name, sortOrder: 0, createdAt: Date(timeIntervalSince1970: 0))
            if todo.isValid { #expect(name.unicodeScalars.count <= 500) }
        }
    }
}

@Suite("One vocabulary: weekdays and content categories")
struct VocabularyTests {
    @Test func weekdaysParseNamesAndNumbersAndWrap() throws {
        #expect(try Weekday(parsing: "mon", field: "weeklyDay") == .monday)
        #expect(try Weekday(parsing: "Saturday", field: "weeklyDay") == .saturday)
        #expect(try Weekday(parsing: "0", field: "weeklyDay") == .sunday)
        for bad in ["", "m", "7", "-1", "mondayx", "funday"] {
            #expect(throws: InvalidField.self) { try Weekday(parsing: bad, field: "weeklyDay") }
        }
        #expect(Weekday(wrapping: 8) == .monday && Weekday(wrapping: -1) == .saturday)
        #expect(Weekday.allCases.map(\.shortName) == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
    }

    @Test func categoriesNameTheFieldAndTheChoices() throws {
        #expect(try MindfulnessContent.ContentCategory(validating: "Nature") == .nature)
        let error = try #require(throws: InvalidField.self) {
            try MindfulnessContent.ContentCategory(validating: "sport", field: "selectedCategories")
        }
        #expect(error.field == "selectedCategories" && error.message.contains("stoicism"))
    }
}

@Suite("The year heatmap both faces draw")
struct YearHeatmapTests {
    @Test func oneCellPerDayFromTheStartOfTheWeekAYearBack() throws {
        let today = try #require(LocalDay("2025-05-14"))  // a Wednesday
        let totals = [
            DailyFocusTotals(day: today, trees: 6, abandoned: 0, focusTime: 9000),
            DailyFocusTotals(day: today.adding(days: -1), trees: 1, abandoned: 1, focusTime: 1500),
        ]
        let monday = YearHeatmap(totals: totals, today: today, firstWeekday: 1)
        #expect(monday.start == YearHeatmap.start(today: today, firstWeekday: 1))
        #expect(Weekday(wrapping: monday.start.weekday) == .monday)
        #expect(monday.cells.count == monday.start.days(to: today) + 1)
        let last = try #require(monday.cells.last)
        #expect(last.day == today && last.row == 2 && last.level == 4 && last.trees == 6)
        #expect(monday.cells.dropLast().last?.level == 1)
        #expect(last.week == monday.weeks - 1)
        #expect(YearHeatmap(totals: [], today: today, firstWeekday: 0).cells.allSatisfy { $0.level == 0 })
    }

    @Test("each month is named above the column holding its 1st, and two labels never overlap")
    func monthLabels() throws {
        let today = try #require(LocalDay("2025-05-14"))
        let grid = YearHeatmap(totals: [], today: today, firstWeekday: 1)
        let labels = grid.monthLabels
        // The year starts Monday 2024-05-13: May's column is only 2 weeks before June's, so it goes unnamed.
        #expect(labels.map(\.name) == ["Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "Jan", "Feb", "Mar", "Apr", "May"])
        for label in labels {
            let days = (0..<7).map { grid.start.adding(days: 7 * label.week + $0) }
            #expect(days.contains { $0.day == 1 && LocalDay.shortMonthName($0.month) == label.name }, "\(label)")
        }
        #expect(zip(labels, labels.dropFirst()).allSatisfy { $1.week - $0.week >= 3 })
        // A year starting early in a month names that month above its first column.
        let early = YearHeatmap(totals: [], today: try #require(LocalDay("2025-04-03")), firstWeekday: 1)
        #expect(early.monthLabels.first == YearHeatmap.MonthLabel(week: 0, name: "Apr"))
    }
}
