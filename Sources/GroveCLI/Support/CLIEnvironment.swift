import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// The environment commands run in.
///
/// `GROVE_NOW=2025-03-12T04:00:00Z` freezes the clock at that instant: end-to-end tests and demos use
/// it to live on a chosen day (a DST change, say). Live countdowns need the real clock, so leave it unset.
public enum CLIEnvironment {
    public static let current: GroveEnvironment = make(ProcessInfo.processInfo.environment)

    static func make(_ variables: [String: String]) -> GroveEnvironment {
        guard let text = variables["GROVE_NOW"], let frozen = GroveExport.parseInstant(text) else { return .live }
        return GroveEnvironment(now: { frozen }, uuid: { UUID() }, systemTimeZone: { TimeZone.current }, clockReading: { ClockReading(wall: frozen) })
    }
}
