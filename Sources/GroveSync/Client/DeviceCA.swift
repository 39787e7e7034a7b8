import Foundation
import GroveRemote

/// A private certificate authority the sync server's certificate is signed by, kept beside the store
/// (`grove.sqlite.sync-ca.pem`) like the token: `grove sync login --ca-file` copies it there, so that
/// every later sync (and the background loop of `grove serve`) trusts the server without the flag.
public enum DeviceCA {
    /// Where the authority of the store at `storePath` lives.
    public static func path(forStore storePath: String) -> String { storePath + ".sync-ca.pem" }

    /// The stored authority's path, when there is one.
    public static func stored(forStore storePath: String) -> String? {
        let path = path(forStore: storePath)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Copies the PEM file at `source` beside the store (checked first: it must hold a certificate).
    public static func install(from source: String, forStore storePath: String) throws {
        _ = try TrustedCertificates.certificates(inPEMFile: source, named: "--ca-file")
        guard let data = FileManager.default.contents(atPath: source) else {
            throw TrustError.unreadable(option: "--ca-file", path: source)
        }
        let path = path(forStore: storePath)
        let temporary = path + ".tmp"
        try data.write(to: URL(fileURLWithPath: temporary))
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }

    public static func remove(forStore storePath: String) {
        try? FileManager.default.removeItem(atPath: path(forStore: storePath))
    }
}
