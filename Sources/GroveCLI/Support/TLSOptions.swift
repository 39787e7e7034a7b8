import ArgumentParser
import Dispatch
import Foundation
import GroveHTTP
import GroveRemote

#if canImport(Glibc)
    import Glibc
#endif

/// `--tls-certificate` and `--tls-key`, shared by `grove serve` and `grove sync-server`: HTTPS served
/// by Grove itself, the pair loaded again on SIGHUP (a renewed certificate without a restart).
struct TLSOptions: ParsableArguments {
    @Option(name: .long, help: "Serve HTTPS with this PEM certificate chain (the server's certificate first).", completion: .file())
    var tlsCertificate: String?
    @Option(name: .long, help: "The PEM private key of --tls-certificate.", completion: .file()) var tlsKey: String?

    /// The pair, loaded and checked now; nil for plain HTTP. A file that cannot serve is refused by its option's name.
    func load() throws -> ReloadableTLS? {
        switch (tlsCertificate, tlsKey) {
        case (let certificate?, let key?):
            do {
                let tls = try ReloadableTLS { try TrustedCertificates.server(certificateChain: certificate, privateKey: key) }
                Self.reloadOnHangup(tls)
                return tls
            } catch {
                throw CLIError.usage("\(error)")
            }
        case (nil, nil): return nil
        default: throw CLIError.usage("--tls-certificate and --tls-key go together: give both, or neither for plain HTTP")
        }
    }

    /// Kept for the life of the process: the source ends when released.
    nonisolated(unsafe) private static var hangup: (any DispatchSourceSignal)?

    /// On SIGHUP (`systemctl reload`, `kill -HUP`, a certbot deploy hook) the pair is loaded again; a
    /// pair that fails is reported and the one in use stays.
    private static func reloadOnHangup(_ tls: ReloadableTLS) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler {
            do {
                try tls.reload()
                Output.note("grove: reloaded the TLS certificate and key (SIGHUP)\n")
            } catch {
                Output.note("grove: kept the TLS certificate in use: \(error)\n")
            }
        }
        source.resume()
        hangup = source
    }
}
