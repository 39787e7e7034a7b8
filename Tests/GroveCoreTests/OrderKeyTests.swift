import Foundation
import GroveCore
import Testing

@Suite("Fractional order keys")
struct OrderKeyTests {
    @Test("a key between any two keys, at the ends and in the middle")
    func between() {
        var keys = [OrderKey.forRank(0), OrderKey.forRank(1), OrderKey.forRank(61), OrderKey.forRank(62)]
        #expect(keys == keys.sorted())
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let index = Int.random(in: 0...keys.count, using: &generator)
            let low = index > 0 ? keys[index - 1] : nil, high = index < keys.count ? keys[index] : nil
            let key = OrderKey.between(low, high)
            if let low { #expect(low < key, "\(low) < \(key)") }
            if let high { #expect(key < high, "\(key) < \(high)") }
            #expect(key.last != "0")
            keys.insert(key, at: index)
        }
        #expect(keys == keys.sorted())
        #expect(keys.map(\.count).max() ?? 0 < 40)
    }

    @Test("assigning keys keeps those still in order and makes new ones only for the moved")
    func assign() {
        let old = (0..<6).map(OrderKey.forRank)
        // Move the last to the front; insert a new one in the middle.
        let given: [String?] = [old[5], old[0], old[1], nil, old[2], old[3], old[4]]
        let keys = OrderKey.assign(given)
        #expect(keys == keys.sorted() && Set(keys).count == keys.count)
        #expect(Array(keys[1...2]) == [old[0], old[1]] && Array(keys[4...]) == [old[2], old[3], old[4]])
        #expect(keys[0] != old[5])
        // Crossed or malformed keys from elsewhere still come out in order.
        let messy = OrderKey.assign(["b", "a", "", "x0", nil, "zz"])
        #expect(messy == messy.sorted() && Set(messy).count == messy.count)
    }
}
