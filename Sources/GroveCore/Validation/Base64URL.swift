import Foundation

extension Data {
    /// Decodes base64url (RFC 4648 §5), padded or not — what browsers hand out for push keys. Nil for
    /// anything else (standard base64's `+` and `/` included).
    public init?(base64URLEncoded text: String) {
        guard text.utf8.allSatisfy({ $0.isBase64URL || $0 == UInt8(ascii: "=") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        self.init(base64Encoded: base64)
    }

    /// This data as unpadded base64url (RFC 4648 §5), as JWTs and push keys are written.
    public var base64URLEncodedString: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}
