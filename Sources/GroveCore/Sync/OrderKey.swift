import Foundation

/// Fractional order keys for to-dos (SYNC.md: "a fractional index string compared bytewise, ties
/// broken by id; the seed's `sortOrder` is the computed rank").
///
/// A key is a string of base-62 digits (`0-9A-Za-z`, in ASCII order) that never ends in `0`, read as a
/// fraction: there is always a key between two others, so a move changes one row, and two devices
/// moving different to-dos never renumber each other's (a whole-list write would lose a concurrent move).
public enum OrderKey {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let base = 62

    /// The key of rank `n` in a list that never had keys: fixed width, so that string order is rank order.
    public static func forRank(_ n: Int) -> String {
        var value = max(0, n)
        var out = [UInt8](repeating: digits[0], count: 4)
        for index in stride(from: 3, through: 0, by: -1) {
            out[index] = digits[value % base]
            value /= base
        }
        return String(decoding: out, as: UTF8.self) + "V"
    }

    /// A key strictly between `a` and `b` (nil: the start or the end of the list). `a` must sort
    /// before `b`; keys not made here are first made valid (trailing `0`s and unknown bytes dropped).
    public static func between(_ a: String?, _ b: String?) -> String {
        let low = a.map(values) ?? [], high = b.map(values)
        if let high, !(low.lexicographicallyPrecedes(high)) {
            // Not in order (two devices' keys crossed): anything after `a` will do, ties break by id.
            return encode(midpoint(low, nil))
        }
        return encode(midpoint(low, high))
    }

    /// Keys for a list in the order given, keeping as many existing keys as stay in order (the longest
    /// increasing run) and making new ones only for the to-dos that moved or are new.
    public static func assign(_ existing: [String?]) -> [String] {
        let keep = longestIncreasing(existing)
        var result = [String](repeating: "", count: existing.count)
        var previous: String?
        var index = 0
        while index < existing.count {
            if keep.contains(index), let key = existing[index] {
                result[index] = key
                previous = key
                index += 1
                continue
            }
            // A run of new keys up to the next kept one.
            var end = index
            while end < existing.count && !keep.contains(end) { end += 1 }
            let next = end < existing.count ? existing[end] : nil
            for position in index..<end {
                let key = between(previous, next)
                result[position] = key
                previous = key
            }
            index = end
        }
        return result
    }

    /// Indexes of a longest strictly increasing subsequence of the non-nil keys.
    static func longestIncreasing(_ keys: [String?]) -> Set<Int> {
        var tails: [Int] = [], parent = [Int](repeating: -1, count: keys.count)
        for (index, key) in keys.enumerated() {
            guard let key, isValid(key) else { continue }
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if let other = keys[tails[mid]], other < key { low = mid + 1 } else { high = mid }
            }
            if low > 0 { parent[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.insert(cursor)
            cursor = parent[cursor]
        }
        return result
    }

    static func isValid(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        return !bytes.isEmpty && bytes.last != digits[0] && bytes.allSatisfy { digits.contains($0) }
    }

    private static func values(_ key: String) -> [Int] {
        var out = key.utf8.compactMap { byte in digits.firstIndex(of: byte) }
        while out.last == 0 { out.removeLast() }
        return out
    }

    private static func encode(_ values: [Int]) -> String { String(decoding: values.map { digits[$0] }, as: UTF8.self) }

    /// The digits of a fraction strictly between `a` and `b` (nil: 1), neither ending in 0
    /// (rocicorp/fractional-indexing's midpoint).
    private static func midpoint(_ a: [Int], _ b: [Int]?) -> [Int] {
        if let b {
            var n = 0
            while n < b.count && (n < a.count ? a[n] : 0) == b[n] { n += 1 }
            if n > 0 { return Array(b[0..<n]) + midpoint(Array(a.dropFirst(n)), Array(b.dropFirst(n))) }
        }
        let digitA = a.first ?? 0
        let digitB = b?.first ?? base
        if digitB - digitA > 1 { return [(digitA + digitB) / 2] }
        if let b, b.count > 1 { return [b[0]] }
        return [digitA] + midpoint(Array(a.dropFirst()), nil)
    }
}
