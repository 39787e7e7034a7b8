import GRDB
import GroveStore
import Testing

@Suite("SQLite failures in words")
struct StoreFailureTests {
    @Test("each failure a person can act on is said in words, with the status a server answers")
    func words() {
        let cases: [(ResultCode, String, Int)] = [
            (.SQLITE_FULL, "disk is full", 507),
            (ResultCode(rawValue: 13 | (1 << 8)), "disk is full", 507),  // an extended code of the same kind
            (.SQLITE_BUSY, "busy", 503),
            (.SQLITE_READONLY, "read-only", 503),
            (.SQLITE_IOERR, "I/O error", 503),
            (.SQLITE_CORRUPT, "damaged", 500),
            (.SQLITE_CANTOPEN, "cannot be opened", 500),
        ]
        for (code, words, status) in cases {
            let error = DatabaseError(resultCode: code, message: "SELECT secret FROM somewhere")
            #expect(error.summary.contains(words), "\(code): \(error.summary)")
            #expect(!error.summary.contains("SELECT"), "\(code)")
            #expect(error.serverStatus == status, "\(code)")
        }
    }
}
