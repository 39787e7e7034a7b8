import Foundation
import Testing

@testable import GroveRemote

/// Which addresses a content pack may be fetched from: never this machine or its network (a pack URL is
/// typed by a person and redirects are followed by hand, so every hop is checked).
@Suite("Content sources: the address rule")
struct SourceAddressPolicyTests {
    @Test(
        arguments: [
            [127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1], [169, 254, 169, 254], [0, 0, 0, 0],
            [100, 64, 0, 1],
        ] as [[UInt8]])
    func privateLoopbackAndLinkLocalV4AreLocal(_ bytes: [UInt8]) {
        #expect(SourceAddressPolicy.isLocal(bytes), "\(bytes)")
    }

    @Test(arguments: [[93, 184, 216, 34], [172, 32, 0, 1], [8, 8, 8, 8], [1, 1, 1, 1]] as [[UInt8]])
    func publicV4IsNot(_ bytes: [UInt8]) {
        #expect(!SourceAddressPolicy.isLocal(bytes), "\(bytes)")
    }

    @Test func literalsAndNamesAreReadAsTheFetcherReadsThem() {
        #expect(SourceAddressPolicy.literalAddress("127.0.0.1") == [127, 0, 0, 1])
        #expect(SourceAddressPolicy.isLocal(SourceAddressPolicy.literalAddress("[::1]") ?? []))
        #expect(SourceAddressPolicy.isLocal(SourceAddressPolicy.literalAddress("[::ffff:10.0.0.1]") ?? []))
        #expect(SourceAddressPolicy.literalAddress("example.com") == nil)
        #expect(SourceAddressPolicy.isLocalName("localhost") && SourceAddressPolicy.isLocalName("api.localhost"))
        #expect(!SourceAddressPolicy.isLocalName("localhost.example.com"))
    }
}
