import Foundation
import Testing

@testable import GroveCore

@Suite("Random ids")
struct RandomIDTests {
    /// Version 4 and the RFC's variant on every id, in text as Foundation writes it, and no two alike.
    @Test func versionFourAndDistinct() throws {
        var seen = Set<UUID>()
        for _ in 0..<2_000 {
            let id = UUID.random()
            let text = id.uuidString
            #expect(text.count == 36 && Array(text)[14] == "4", "\(text)")
            #expect(["8", "9", "A", "B"].contains(Array(text)[19]), "\(text)")
            #expect(UUID(uuidString: text) == id)
            seen.insert(id)
        }
        #expect(seen.count == 2_000)
        // The other 122 bits vary: every hex digit outside the version and variant takes many values.
        let digits = (0..<200).map { _ in Array(UUID.random().uuidString.replacingOccurrences(of: "-", with: "")) }
        for position in 0..<32 where position != 12 {
            #expect(Set(digits.map { $0[position] }).count >= (position == 16 ? 4 : 8), "position \(position)")
        }
    }
}
