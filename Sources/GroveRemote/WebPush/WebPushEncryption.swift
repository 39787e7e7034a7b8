import Crypto
import Foundation

/// The body of a Web Push message (RFC 8291): `plaintext` encrypted to one browser's subscription
/// keys, as one `aes128gcm` record (RFC 8188) that only that browser can read — the push service
/// in between carries it without reading it.
public enum WebPushEncryption {
    /// The record size written in the header (RFC 8291 uses 4,096; a message is one record).
    public static let recordSize: UInt32 = 4096
    /// The longest plaintext sent: a push service takes 4,096 bytes of body at most (RFC 8030 §7.2),
    /// of which the header (86), the tag (16) and the delimiter (1) are not the message.
    public static let maximumPlaintext = 3_993

    /// Why a message could not be encrypted.
    public enum Failure: Error, Equatable {
        /// The browser's key is not a P-256 point, or its auth secret not 16 bytes.
        case badSubscriptionKeys
        /// The message is longer than `maximumPlaintext`.
        case tooLong(Int)
    }

    /// Encrypts `plaintext` to the browser whose public key is `userAgentKey` (65 bytes, uncompressed)
    /// and auth secret `authSecret` (16 bytes). `serverKey` and `salt` are fresh for every message;
    /// they are parameters only so that RFC 8291's Appendix A can be reproduced.
    public static func encrypt(
        _ plaintext: Data, userAgentKey: Data, authSecret: Data, serverKey: P256.KeyAgreement.PrivateKey = .init(),
        salt: Data = randomSalt()
    ) throws -> Data {
        guard plaintext.count <= maximumPlaintext else { throw Failure.tooLong(plaintext.count) }
        guard authSecret.count == 16, salt.count == 16, let browser = try? P256.KeyAgreement.PublicKey(x963Representation: userAgentKey)
        else { throw Failure.badSubscriptionKeys }
        let serverPublic = serverKey.publicKey.x963Representation
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: browser)
        // §3.3: the input keying material binds both public keys and the browser's auth secret.
        let keyInfo = Data("WebPush: info".utf8) + [0] + userAgentKey + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content-encryption key and the nonce (one record: sequence number 0).
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let nonce = try AES.GCM.Nonce(data: nonceBytes.withUnsafeBytes { Data($0) })
        // The last (and only) record ends with the delimiter 2, and no padding.
        let sealed = try AES.GCM.seal(plaintext + [2], using: cek, nonce: nonce)
        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// 16 random bytes: a message's salt.
    public static func randomSalt() -> Data {
        Data(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
    }
}
