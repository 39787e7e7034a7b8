import Foundation

/// `#RRGGBB` colours, shared by timers and themes.
public enum HexColor {
    /// Whether `value` is `#` followed by exactly six hex digits.
    public static func isValid(_ value: String) -> Bool {
        let utf8 = Array(value.utf8)
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return false }
        return utf8.dropFirst().allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }

    /// The stored form of a colour a person typed: `#RRGGBB` in upper case (`#007aff` → `#007AFF`).
    /// Anything that is not a colour comes back as typed, so that the error quotes the person's input.
    public static func normalized(_ value: String) -> String {
        let upper = value.trimmingCharacters(in: .whitespaces).uppercased()
        return isValid(upper) ? upper : value
    }

    /// Red, green, blue 0…255, or nil when invalid.
    public static func components(_ value: String) -> (r: Int, g: Int, b: Int)? {
        guard isValid(value), let n = Int(value.dropFirst(), radix: 16) else { return nil }
        return ((n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF)
    }

    /// `#RRGGBB` (upper case) for components 0…255.
    public static func string(r: Int, g: Int, b: Int) -> String {
        func hex(_ v: Int) -> String {
            let s = String(Swift.max(0, Swift.min(255, v)), radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(r) + hex(g) + hex(b)
    }

    /// WCAG 2 relative luminance.
    public static func relativeLuminance(_ value: String) -> Double? {
        guard let (r, g, b) = components(value) else { return nil }
        func channel(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.039_28 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG 2 contrast ratio between two colours, 1…21.
    public static func contrastRatio(_ a: String, _ b: String) -> Double? {
        guard let la = relativeLuminance(a), let lb = relativeLuminance(b) else { return nil }
        return (Swift.max(la, lb) + 0.05) / (Swift.min(la, lb) + 0.05)
    }
}
