import Crypto
import Foundation
import GroveCore

/// Voluntary application server identification (RFC 8292): the `Authorization` a push message
/// carries, a JWT signed with this Grove's key (ES256) for the push service's origin, with the
/// public key the browsers subscribed with. A push service refuses messages from anyone else.
public struct VAPID: Sendable {
    /// This Grove's signing key (`AppDatabase.vapidKey()`).
    public let key: P256.Signing.PrivateKey
    /// Whom the push service may contact about these messages: `mailto:` or an https URL.
    public let subject: String
    /// How long a token is valid (RFC 8292 allows up to 24 hours).
    public static let lifetime: TimeInterval = 12 * 3600

    public init(key: P256.Signing.PrivateKey, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The public key browsers subscribe with (`applicationServerKey`), in base64url.
    public var publicKey: String { key.publicKey.x963Representation.base64URLEncodedString }

    /// The `Authorization` header for a message to `endpoint`, valid from `now` for `lifetime`.
    public func authorization(for endpoint: URL, now: Date) throws -> String {
        var audience = "\(endpoint.scheme ?? "https")://\(endpoint.host ?? "")"
        if let port = endpoint.port { audience += ":\(port)" }
        struct Claims: Encodable { var aud: String; var exp: Int; var sub: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8).base64URLEncodedString
        let claims = try encoder.encode(Claims(aud: audience, exp: Int(now.timeIntervalSince1970 + Self.lifetime), sub: subject))
        let input = "\(header).\(claims.base64URLEncodedString)"
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation.base64URLEncodedString
        return "vapid t=\(input).\(signature), k=\(publicKey)"
    }
}
