import AsyncHTTPClient
import Foundation
import NIOSSL

/// Which certificate authorities Grove's outgoing HTTPS requests trust: the system's bundle, or the
/// one `SSL_CERT_FILE` names (as OpenSSL, curl and Python read it), plus a private CA given to
/// `grove sync login --ca-file` (a home server with its own authority).
public enum TrustedCertificates {
    /// The client TLS configuration: `SSL_CERT_FILE` (when set) replaces the system's bundle, as it
    /// does for OpenSSL; `caFile` is trusted in addition to either.
    public static func configuration(
        caFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TrustError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let bundle = environment["SSL_CERT_FILE"], !bundle.isEmpty {
            tls.trustRoots = .certificates(try certificates(inPEMFile: bundle, named: "SSL_CERT_FILE"))
        }
        if let caFile {
            tls.additionalTrustRoots = [.certificates(try certificates(inPEMFile: caFile, named: "--ca-file"))]
        }
        return tls
    }

    /// An HTTP client configuration with `configuration`'s TLS.
    public static func clientConfiguration(
        _ base: HTTPClient.Configuration, caFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TrustError) -> HTTPClient.Configuration {
        var client = base
        client.tlsConfiguration = try configuration(caFile: caFile, environment: environment)
        return client
    }

    /// The certificates of a PEM file, or an error naming the option and what is wrong with the file.
    public static func certificates(inPEMFile path: String, named option: String) throws(TrustError) -> [NIOSSLCertificate] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(option: option, path: path) }
        guard let found = try? NIOSSLCertificate.fromPEMBytes(Array(data)), !found.isEmpty else {
            throw .notPEM(option: option, path: path)
        }
        return found
    }

    /// A server TLS configuration from PEM files: the certificate chain (the server's first) and its
    /// key, each refused by its option's name when it cannot serve.
    public static func server(certificateChain: String, privateKey: String) throws(TrustError) -> TLSConfiguration {
        let chain = try certificates(inPEMFile: certificateChain, named: "--tls-certificate")
        guard let key = try? NIOSSLPrivateKey(file: privateKey, format: .pem) else {
            throw .notPrivateKey(option: "--tls-key", path: privateKey)
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // A key of another certificate is found here, by name, not at the first connection.
        do { _ = try NIOSSLContext(configuration: configuration) } catch {
            throw .keyMismatch(keyOption: "--tls-key", certificateOption: "--tls-certificate")
        }
        return configuration
    }

    /// Words for a failed TLS handshake with `server`, or nil when `error` is not one.
    public static func explain(_ error: any Error, server: String) -> String? {
        let text = String(describing: error)
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return "the certificate of \(server) is for another name: use the address its certificate names"
        }
        guard error is NIOSSLError || text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("handshakeFailed") else {
            return nil
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the certificate of \(server) is not signed by an authority this machine trusts: "
                + "give your authority's certificate with `--ca-file ca.pem` (or the bundle in SSL_CERT_FILE)"
        }
        return "the TLS handshake with \(server) failed (\(text.prefix(160))): is it an https server?"
    }
}

/// Why a certificate file cannot be used.
public enum TrustError: Error, Equatable, CustomStringConvertible {
    /// The file is missing or unreadable.
    case unreadable(option: String, path: String)
    /// The file holds no PEM certificate (`-----BEGIN CERTIFICATE-----`).
    case notPEM(option: String, path: String)
    /// The file holds no PEM private key (`-----BEGIN PRIVATE KEY-----`) that can be read.
    case notPrivateKey(option: String, path: String)
    /// The key is not the private key of the certificate it goes with.
    case keyMismatch(keyOption: String, certificateOption: String)

    public var description: String {
        switch self {
        case .unreadable(let option, let path): "\(option): cannot read \(path)"
        case .notPEM(let option, let path): "\(option): \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        case .notPrivateKey(let option, let path): "\(option): \(path) holds no PEM private key (-----BEGIN PRIVATE KEY-----)"
        case .keyMismatch(let key, let certificate):
            "\(key): this is not the private key of the \(certificate) certificate (the first in its file): give the pair's key"
        }
    }
}
