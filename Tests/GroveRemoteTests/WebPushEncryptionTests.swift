import Crypto
import Foundation
import GroveCore
import GroveTestSupport
import Testing

@testable import GroveRemote

@Suite("Web Push: RFC 8291 message encryption and RFC 8292 VAPID")
struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A, copied from the RFC (base64url).
    enum Vector {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
            + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) throws -> Data { try #require(Data(base64URLEncoded: text)) }

    @Test func theRFCsExampleIsReproducedByteForByte() throws {
        let server = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Vector.asPrivate))
        #expect(server.publicKey.x963Representation.base64URLEncodedString == Vector.asPublic)
        let body = try WebPushEncryption.encrypt(
            Data(Vector.plaintext.utf8), userAgentKey: Self.bytes(Vector.uaPublic), authSecret: Self.bytes(Vector.authSecret),
            serverKey: server, salt: Self.bytes(Vector.salt))
        #expect(body.base64URLEncodedString == Vector.body)
    }

    @Test func theBrowserReadsWhatWasSentAndNobodyElseDoes() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { UInt8($0) })
        let body = try WebPushEncryption.encrypt(
            Data("Tree planted!".utf8), userAgentKey: browser.publicKey.x963Representation, authSecret: auth)
        #expect(try StandInPushService.decrypt(body, key: browser, auth: auth) == Data("Tree planted!".utf8))
        #expect(throws: (any Error).self) { try StandInPushService.decrypt(body, key: P256.KeyAgreement.PrivateKey(), auth: auth) }
        // Fresh keys and salt every time: the same text never looks the same twice.
        let again = try WebPushEncryption.encrypt(
            Data("Tree planted!".utf8), userAgentKey: browser.publicKey.x963Representation, authSecret: auth)
        #expect(again != body)
    }

    @Test func aBadSubscriptionOrATooLongMessageIsRefused() throws {
        let browser = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        #expect(throws: WebPushEncryption.Failure.badSubscriptionKeys) {
            try WebPushEncryption.encrypt(Data("hi".utf8), userAgentKey: Data(repeating: 4, count: 65), authSecret: Data(count: 16))
        }
        #expect(throws: WebPushEncryption.Failure.badSubscriptionKeys) {
            try WebPushEncryption.encrypt(Data("hi".utf8), userAgentKey: browser, authSecret: Data(count: 15))
        }
        #expect(throws: WebPushEncryption.Failure.tooLong(5000)) {
            try WebPushEncryption.encrypt(Data(count: 5000), userAgentKey: browser, authSecret: Data(count: 16))
        }
    }

    @Test func theVAPIDTokenIsSignedForThePushServicesOriginAndCarriesTheKey() throws {
        let key = P256.Signing.PrivateKey()
        let vapid = VAPID(key: key, subject: "https://grove.example")
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let header = try vapid.authorization(for: #require(URL(string: "https://push.example:8443/send/abc?x=1")), now: now)
        let claims = try #require(StandInPushService.verifiedClaims(header))
        #expect(claims["aud"] == "https://push.example:8443")
        #expect(claims["sub"] == "https://grove.example")
        #expect(claims["exp"] == "\(1_750_000_000 + 12 * 3600)")
        #expect(header.hasSuffix(", k=\(key.publicKey.x963Representation.base64URLEncodedString)"))
        // A token whose signature does not match the key it names is not verified.
        let forged =
            header.components(separatedBy: ", k=")[0]
            + ", k=\(P256.Signing.PrivateKey().publicKey.x963Representation.base64URLEncodedString)"
        #expect(StandInPushService.verifiedClaims(forged) == nil)
    }
}
