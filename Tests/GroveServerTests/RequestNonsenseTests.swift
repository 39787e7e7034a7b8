import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// What JSON and ISO 8601 allow on paper and no request means: refused as 400 naming the field, and
/// nothing changes.
@Suite("API: nonsense in request bodies refused by name")
struct RequestNonsenseTests {
    @Test("year 0000 and a leap second are no instants; a field given twice is no choice")
    func nonsense() async throws {
        let server = try await TestServer()
        try await server.test { c in
            for (start, end) in [("0000-05-13T08:00:00Z", "0000-05-13T08:25:00Z"), ("2025-05-13T08:00:60Z", "2025-05-13T08:25:00Z")] {
                let reply = try await c.post("/api/v1/focus/log", #"{"start": "\#(start)", "end": "\#(end)"}"#)
                expectProblem(reply, 400, field: "start")
            }
            let twice = try await c.post("/api/v1/timers", #"{"name": "Tea", "durationInSeconds": 60, "name": "Coffee"}"#)
            expectProblem(twice, 400, field: "name", detail: "appears twice")
            let nested = try await c.post(
                "/api/v1/focus/log",
                #"{"start": "2025-05-13T08:00:00Z", "end": "2025-05-13T08:30:00Z", "pauses": [{"start": "2025-05-13T08:10:00Z", "start": "2025-05-13T08:11:00Z", "end": "2025-05-13T08:15:00Z"}]}"#
            )
            expectProblem(nested, 400, field: "start", detail: "appears twice")
            #expect(try await c.get("/api/v1/timers").array.isEmpty)
            #expect(try await c.get("/api/v1/focus/sessions").array.isEmpty)
        }
    }

    @Test("the export's format is read as the CLI reads it: CSV and csv alike")
    func exportFormatOneVocabulary() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let upper = try await c.get("/api/v1/export?format=CSV")
            #expect(upper.status == 200 && upper.contentType.hasPrefix("text/csv"), "\(upper.text)")
            expectProblem(
                try await c.get("/api/v1/export?format=xml"), 400, field: "format", detail: "format must be one of json, csv, ics")
        }
    }

    /// A failure of the store as `DatabaseError` reports it (GroveStore's tests check that mapping).
    struct Failure: StoreFailure {
        var summary: String
        var serverStatus: Int
    }

    @Test("a full disk is said in words with 507, a busy store with 503; any other failure stays a 500 without details")
    func storeFailuresInWords() {
        let full = Problem.from(Failure(summary: "The disk is full: nothing was saved", serverStatus: 507))
        #expect(full.status == 507 && full.detail.contains("disk is full"))
        let busy = Problem.from(Failure(summary: "The database stayed busy", serverStatus: 503))
        #expect(busy.status == 503 && busy.detail.contains("busy"))
        let other = Problem.from(Failure(summary: "SQL: SELECT secret", serverStatus: 500))
        #expect(other.status == 500 && !other.detail.contains("SELECT"))
    }
}
