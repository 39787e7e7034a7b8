import Crypto
import Foundation
import GroveCore
import HTTPTypes
import Hummingbird

/// A push service for tests (RFC 8030), served with `withLiveServer` on 127.0.0.1: it takes what a
/// Grove sends to a browser, checks its VAPID token (RFC 8292) and decrypts it with the browser's
/// private key (RFC 8291), as the push service and the browser would between them.
///
/// A subscription's endpoint path says how the service behaves: `/ok/NAME` takes the message (201),
/// `/gone/NAME` says the subscription expired (410), `/hang/NAME` holds the request until `release()`.
public final class StandInPushService: Sendable {
    /// One message the service took.
    public struct Message: Sendable {
        public let path: String
        /// The decrypted payload.
        public let plaintext: Data
        /// The VAPID token's claims (`aud`, `exp`, `sub`).
        public let claims: [String: String]
        /// The request's `TTL` and `Urgency`.
        public let ttl: String?
        public let urgency: String?
    }

    /// The browser's key pair and auth secret: what its subscription hands the Grove.
    public let browser = P256.KeyAgreement.PrivateKey()
    public let auth = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
    /// The messages taken, in order.
    public let messages: AsyncStream<Message>
    private let taken: AsyncStream<Message>.Continuation
    /// Requests held by `/hang/…` paths, in order of arrival.
    public let held: AsyncStream<String>
    private let holding: AsyncStream<String>.Continuation
    private let gate = Gate()

    public init() {
        (messages, taken) = AsyncStream.makeStream()
        (held, holding) = AsyncStream.makeStream()
    }

    /// The subscription's `keys.p256dh`, base64url.
    public var p256dh: String { browser.publicKey.x963Representation.base64URLEncodedString }
    /// The subscription's `keys.auth`, base64url.
    public var authSecret: String { auth.base64URLEncodedString }

    /// Lets every held request (and any later one) answer.
    public func release() { gate.open() }

    /// The service's routes.
    public var router: Router<BasicRequestContext> {
        let router = Router()
        router.post("ok/:name") { [self] request, context -> Response in
            let body = try await request.body.collect(upTo: 8192)
            guard request.headers[Self.field("Content-Encoding")] == "aes128gcm",
                let authorization = request.headers[.authorization], let claims = Self.verifiedClaims(authorization),
                let plaintext = try? Self.decrypt(Data(buffer: body), key: browser, auth: auth)
            else { return Response(status: .badRequest) }
            taken.yield(
                Message(
                    path: request.uri.path, plaintext: plaintext, claims: claims, ttl: request.headers[Self.field("TTL")],
                    urgency: request.headers[Self.field("Urgency")]))
            return Response(status: .created)
        }
        router.post("gone/:name") { _, _ in Response(status: .gone) }
        router.post("hang/:name") { [self] request, _ -> Response in
            holding.yield(request.uri.path)
            await gate.wait()
            return Response(status: .created)
        }
        return router
    }

    private static func field(_ name: String) -> HTTPField.Name { HTTPField.Name(name) ?? .contentType }

    /// Decrypts an `aes128gcm` Web Push body with the browser's private key and auth secret (RFC 8291).
    public static func decrypt(_ body: Data, key: P256.KeyAgreement.PrivateKey, auth: Data) throws -> Data {
        let body = Data(body)
        guard body.count > 21 + 16 else { throw CryptoKitError.incorrectParameterSize }
        let salt = body.prefix(16)
        let idLength = Int(body[20])
        guard body.count > 21 + idLength + 16 else { throw CryptoKitError.incorrectParameterSize }
        let serverPublic = body.subdata(in: 21..<(21 + idLength))
        let sealed = body.suffix(from: 21 + idLength)
        let shared = try key.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: serverPublic))
        let keyInfo = Data("WebPush: info".utf8) + [0] + key.publicKey.x963Representation + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
        var plain = try AES.GCM.open(box, using: cek)
        // The padding delimiter (2 for the last record) and any zeros after it.
        while plain.last == 0 { plain.removeLast() }
        guard plain.last == 2 else { throw CryptoKitError.incorrectParameterSize }
        return plain.dropLast()
    }

    /// The claims of a `vapid t=…, k=…` header whose ES256 signature verifies with the key it names.
    public static func verifiedClaims(_ header: String) -> [String: String]? {
        guard header.hasPrefix("vapid ") else { return nil }
        var parts: [String: String] = [:]
        for item in header.dropFirst(6).split(separator: ",") {
            let pair = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        guard let token = parts["t"], let keyText = parts["k"], let keyData = Data(base64URLEncoded: keyText),
            let key = try? P256.Signing.PublicKey(x963Representation: keyData)
        else { return nil }
        let pieces = token.split(separator: ".").map(String.init)
        guard pieces.count == 3, let signature = Data(base64URLEncoded: pieces[2]),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data("\(pieces[0]).\(pieces[1])".utf8)),
            let claims = Data(base64URLEncoded: pieces[1]), let object = try? JSONSerialization.jsonObject(with: claims) as? [String: Any]
        else { return nil }
        return object.mapValues { "\($0)" }
    }
}

/// Held requests wait here until it opens (any number of them at once).
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiting.append(continuation)
                lock.unlock()
            }
        }
    }

    func open() {
        lock.lock()
        isOpen = true
        let resumed = waiting
        waiting = []
        lock.unlock()
        for continuation in resumed { continuation.resume() }
    }
}
