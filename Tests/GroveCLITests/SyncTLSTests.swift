import Foundation
import Testing

/// A home sync server on HTTPS with a certificate from its owner's own authority (made here by the
/// real `openssl`): refused with words that say what to do, then trusted through `--ca-file` (kept
/// for every later sync) or `SSL_CERT_FILE`.
@Suite("Sync over HTTPS with a private authority", .serialized)
struct SyncTLSTests {
    /// A CA, and a server certificate it signed for 127.0.0.1 and localhost, in `directory`.
    static func makeAuthority(in directory: String) throws {
        let steps: [[String]] = [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj",
                "/CN=Grove test CA",
            ],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
                "-days", "2", "-extfile", "san.cnf",
            ],
        ]
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: directory + "/san.cnf", atomically: true, encoding: .utf8)
        for arguments in steps {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "openssl \(arguments.joined(separator: " "))")
        }
    }

    @Test("an untrusted certificate is refused in words; --ca-file and SSL_CERT_FILE make it trusted")
    func privateAuthority() throws {
        let home = Grove()
        try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
        try Self.makeAuthority(in: home.home)
        let database = home.home + "/sync-server.sqlite"
        let server = try SyncEndToEndTests.Server(
            database: database,
            arguments: ["--tls-certificate", home.home + "/server.pem", "--tls-key", home.home + "/server.key"], scheme: "https")
        defer { server.stop() }
        let password = SyncEndToEndTests.password
        #expect(
            try home.runBinary(["sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input: password).status
                == 0)

        // The system's authorities do not know this one: a sentence, not a BoringSSL dump.
        let a = Grove()
        let refused = try a.runBinary(["sync", "login", server.url, "--user", "ada", "--password-stdin"], input: password)
        #expect(refused.status == 1)
        #expect(
            refused.err.contains("not signed by an authority this machine trusts") && refused.err.contains("--ca-file"), "\(refused.err)")
        #expect(try a.runBinary("sync", "status").out.contains("Not linked"), "nothing linked after a refused login")

        // A file that is no certificate is bad input, named as the option.
        try "not a certificate".write(toFile: home.home + "/junk.pem", atomically: true, encoding: .utf8)
        let junk = try a.runBinary(
            ["sync", "login", server.url, "--user", "ada", "--password-stdin", "--ca-file", home.home + "/junk.pem"], input: password)
        #expect(junk.status == 64 && junk.err.contains("--ca-file") && junk.err.contains("no PEM certificate"), "\(junk.err)")

        // --ca-file: trusted now and for every later sync (kept beside the store), without the flag.
        let login = try a.runBinary(
            ["sync", "login", server.url, "--user", "ada", "--password-stdin", "--plain", "--ca-file", home.home + "/ca.pem"],
            input: password)
        #expect(login.status == 0, "\(login.err)")
        #expect(try a.runBinary("intention", "set", "Ship it").status == 0)
        let synced = try a.runBinary("sync")
        #expect(synced.status == 0, "\(synced.err)")

        // SSL_CERT_FILE names the bundle to trust instead of the system's, as for OpenSSL and curl.
        let b = Grove()
        let bundle = ["SSL_CERT_FILE": home.home + "/ca.pem"]
        let viaEnvironment = try b.runBinary(
            ["sync", "login", server.url, "--user", "ada", "--password-stdin"], environment: bundle, input: password)
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.err)")
        #expect(try b.runBinary(["sync"], environment: bundle).status == 0)
        #expect(try b.runBinary("intention", "list").out.contains("Ship it"))
        // Without it again, the server is unknown once more.
        #expect(try b.runBinary("sync").err.contains("--ca-file"))
    }

    @Test("a sync server's TLS files are checked before it listens")
    func serverFilesChecked() throws {
        let home = Grove()
        try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
        let missingKey = try home.runBinary("sync-server", "--port", "18093", "--tls-certificate", "/nonexistent.pem")
        #expect(missingKey.status == 64 && missingKey.err.contains("--tls-key"), "\(missingKey.err)")
        try "junk".write(toFile: home.home + "/c.pem", atomically: true, encoding: .utf8)
        let junk = try home.runBinary(
            "sync-server", "--port", "18093", "--tls-certificate", home.home + "/c.pem", "--tls-key", home.home + "/c.pem")
        #expect(junk.status == 64 && junk.err.contains("--tls-certificate") && junk.err.contains("no PEM certificate"), "\(junk.err)")
    }
}
