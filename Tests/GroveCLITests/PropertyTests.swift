import Foundation
import GroveCore
import GroveTestSupport
import PropertyBased
import Testing

@testable import GroveCLI

@Suite("Property checks of the command line's parsers", .heavy)
struct CLIPropertyTests {
    static func strings(_ alphabet: [Character], _ length: ClosedRange<Int>) -> Generator<
        String, Generator<Int, Shrink.Integer<Int>>.ArrayShrink
    > {
        Gen.int(in: 0...(alphabet.count - 1)).array(of: length).map { String($0.map { alphabet[$0] }) }
    }

    @Test func durationsAreFiniteAndBoundedOrRefused() async {
        await propertyCheck(count: 2000, input: Self.strings(Array("0123456789.hmsinfaeE+- x٣"), 0...24)) { text in
            if let seconds = DurationParser.seconds(text) {
                #expect(seconds.isFinite && seconds > 0 && seconds <= DurationParser.maxSeconds, "\(text) → \(seconds)")
            }
            _ = DurationParser.clock(DurationParser.seconds(text) ?? .infinity)
        }
        for text in ["inf", "nan", "1e308", "99999999999999999999h", "-5m", "0", "", "1e3m", "0x10"] {
            #expect(DurationParser.seconds(text) == nil, "\(text)")
        }
    }

    @Test func wholeMinuteAndUnitFormsReadBackExactly() async {
        await propertyCheck(count: 500, input: Gen.int(in: 1...1440), Gen.int(in: 0...59)) { minutes, seconds in
            #expect(DurationParser.seconds("\(minutes)") == TimeInterval(minutes * 60))
            #expect(DurationParser.seconds("\(minutes)m\(seconds)s") == TimeInterval(minutes * 60 + seconds))
            #expect(
                DurationParser.seconds("\(minutes / 60)h \(minutes % 60)m") == TimeInterval(minutes / 60 * 3600 + minutes % 60 * 60).nonZero
            )
        }
    }

    @Test func typedInstantsAndDaysAreReadOrRefusedNamingTheField() async throws {
        let calendar = try #require(ZonedCalendar(identifier: "America/New_York"))
        let now = Date(timeIntervalSince1970: 1_741_500_000)
        await propertyCheck(count: 1000, input: Self.strings(Array("0123456789-:TZ +."), 0...26)) { text in
            do { _ = try TimeParsing.instant(text, field: "start", now: now, calendar: calendar) } catch let error as InvalidField {
                #expect(error.field == "start")
            } catch { Issue.record("\(text): \(error)") }
            do { _ = try TimeParsing.day(text, field: "date", today: LocalDay(dayNumber: 20_000)) } catch let error as InvalidField {
                #expect(error.field == "date")
            } catch { Issue.record("\(text): \(error)") }
        }
    }
}

extension TimeInterval {
    /// nil for zero (a duration of nothing is not a duration).
    var nonZero: TimeInterval? { self == 0 ? nil : self }
}
