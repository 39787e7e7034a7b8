import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a content pack may be fetched from: a public address, or the very host a person typed when
/// it is a local one (`http://127.0.0.1:8000/pack.json`, a pack on their own machine or network).
///
/// Checked before the first request and again before every redirect, by the addresses the host name
/// resolves to: a pack on a public site that redirects (or resolves) to 127.0.0.1, a private network or
/// a cloud's metadata address (169.254.169.254) is refused, so that a pack cannot make Grove read a
/// service only this machine can reach and show it in a pause.
struct SourceAddressPolicy: Sendable {
    /// The host a person chose although it is local (nil: only public hosts).
    let allowedLocalHost: String?

    init(sourceURL: String) {
        let host = URLComponents(string: sourceURL)?.host?.lowercased()
        allowedLocalHost = host.flatMap { Self.isLocalName($0) || Self.literalAddress($0).map(Self.isLocal) == true ? $0 : nil }
    }

    /// Throws unless `url` may be fetched.
    func check(_ url: URL) throws {
        guard let host = url.host?.lowercased(), !host.isEmpty else { throw Refusal(message: "The address has no host") }
        if host == allowedLocalHost { return }
        if Self.isLocalName(host) {
            throw Refusal(message: "The source leads to \(host), a local address; add a local pack by its own address")
        }
        let addresses = try Self.resolve(host)
        if let local = addresses.first(where: Self.isLocal) {
            throw Refusal(message: "The source leads to \(host) (\(Self.text(local))), a private, loopback or link-local address: refused")
        }
    }

    struct Refusal: Error, Equatable { let message: String }

    static func isLocalName(_ host: String) -> Bool { host == "localhost" || host.hasSuffix(".localhost") }

    /// The address a host written as an IP literal names.
    static func literalAddress(_ host: String) -> [UInt8]? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Every address `host` resolves to (4 or 16 bytes each).
    static func resolve(_ host: String) throws -> [[UInt8]] {
        if let literal = literalAddress(host) { return [literal] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
            throw Refusal(message: "Could not reach the source: its host name did not resolve (offline?)")
        }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr {
                switch Int32(entry.pointee.ai_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        var value = pointer.pointee.sin_addr
                        addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        var value = pointer.pointee.sin6_addr
                        addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                    }
                default: break
                }
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }

    /// Loopback, private, link-local, carrier-grade NAT, unspecified, multicast or reserved.
    static func isLocal(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 4 {
            let (a, b) = (bytes[0], bytes[1])
            return a == 0 || a == 10 || a == 127 || (a == 169 && b == 254) || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 100 && (64...127).contains(b)) || a >= 224
        }
        guard bytes.count == 16 else { return true }
        if bytes.allSatisfy({ $0 == 0 }) || bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }  // :: and ::1
        // v4-mapped
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return isLocal(Array(bytes[12..<16])) }
        return bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80) || bytes[0] == 0xFF  // ULA, link-local, multicast
    }

    static func text(_ bytes: [UInt8]) -> String {
        bytes.count == 4
            ? bytes.map(String.init).joined(separator: ".")
            : "IPv6 "
                + stride(from: 0, to: bytes.count, by: 2).map {
                    String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
                }.joined(separator: ":")
    }
}
