"""The least the stack Grove is built on can do, as anchors beside Grove's own figures.

Issue 41 compares `grove now` with timewarrior and a server's write with SQLite's own commit. These
floors say how much of each gap any program on Grove's stack would pay, so that a figure is read
against what is reachable:

- `c_now_floor`: C opening a Grove store through the system's SQLite and reading the running
  session. SQLite parses the whole schema (every table, index and trigger) before the first
  statement of a connection, whatever the statement reads.
- `swift_hello`: a statically linked Swift hello world (the runtime's own start).
- the stack floors, one Swift package built once in a scratch folder with the same release link
  settings as `grove` (static Swift runtime, lld, packed relocations, static libstdc++):
  `now-floor` opens the store through GRDB as `grove now` does and reads the running session;
  `write-floor` is a Hummingbird 2 server over a GRDB pool (WAL, synchronous = FULL) that answers
  `POST /api/v1/timers` (JSON in, one INSERT, 201 with JSON) and `DELETE /api/v1/timers/ID` (204).
"""
import os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import scratch_package, write_changed  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SESSION_SQL = "SELECT start_time, planned_ms FROM focus_session WHERE state IN ('active', 'paused')"

C_NOW = r"""
#include <sqlite3.h>
#include <stdio.h>
#include <time.h>
int main(int argc, char **argv) {
    sqlite3 *db;
    sqlite3_stmt *st;
    if (argc < 2 || sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db, "%s", -1, &st, NULL) != SQLITE_OK) return 1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        long long left = (sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1)) / 1000 - time(NULL);
        printf("%%lld:%%02lld\n", left / 60, left %% 60);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
""" % SESSION_SQL

STACK_PACKAGE = """// swift-tools-version: 6.1
import PackageDescription
let release: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux], configuration: .release)),
    .unsafeFlags(["-L", "LINKING"], .when(platforms: [.linux], configuration: .release)),
] + ["_FoundationICU", "_FoundationCShims", "_FoundationCollections", "CoreFoundation", "swiftSynchronization"].map {
    .linkedLibrary($0, .when(platforms: [.linux], configuration: .release))
}
let package = Package(
    name: "floors",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "now-floor", dependencies: [.product(name: "GRDB", package: "GRDB.swift")], linkerSettings: release),
        .executableTarget(
            name: "write-floor",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift"), .product(name: "Hummingbird", package: "hummingbird")],
            linkerSettings: release),
    ]
)
""".replace("LINKING", os.path.join(ROOT, "Linking"))

NOW_FLOOR = """import Foundation
import GRDB

// Opens the store as `grove now` does (one connection, WAL checked), reads the running session.
let queue = try DatabaseQueue(path: CommandLine.arguments[1])
try queue.writeWithoutTransaction { db in
    if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
}
let line = try queue.read { db -> String in
    guard let row = try Row.fetchOne(db, sql: "SQL") else { return "" }
    let start: Int64 = row[0], planned: Int64 = row[1]
    let left = (start + planned) / 1000 - Int64(Date().timeIntervalSince1970)
    return "\\(left / 60):\\(left % 60)"
}
print(line)
""".replace("SQL", SESSION_SQL)

WRITE_FLOOR = """import Foundation
import GRDB
import Hummingbird

struct NewTimer: Decodable { var name: String; var durationInSeconds: Int; var colorHex: String; var todos: [String] }
struct Timer: ResponseEncodable { var id: String; var name: String; var durationInSeconds: Int; var colorHex: String; var todos: [String] }

// One GRDB pool in WAL mode, every connection synchronous = FULL (an acknowledged write is on disk).
var configuration = Configuration()
configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
let pool = try DatabasePool(path: CommandLine.arguments[1], configuration: configuration)
try pool.writeWithoutTransaction { db in
    try db.execute(sql: "PRAGMA synchronous = FULL")
    try db.execute(sql: "CREATE TABLE IF NOT EXISTS timer (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, duration INTEGER NOT NULL, color TEXT NOT NULL, todos TEXT NOT NULL) STRICT")
}
let router = Router()
router.get("/") { _, _ in "ok" }
router.post("/api/v1/timers") { request, context -> EditedResponse<Timer> in
    let new = try await request.decode(as: NewTimer.self, context: context)
    let timer = Timer(id: UUID().uuidString, name: new.name, durationInSeconds: new.durationInSeconds, colorHex: new.colorHex, todos: new.todos)
    try await pool.write { db in
        try db.execute(
            sql: "INSERT INTO timer VALUES (?, ?, ?, ?, ?)",
            arguments: [timer.id, timer.name, timer.durationInSeconds, timer.colorHex, timer.todos.joined(separator: "\\\\n")])
    }
    return EditedResponse(status: .created, response: timer)
}
router.delete("/api/v1/timers/:id") { _, context -> HTTPResponse.Status in
    let id = try context.parameters.require("id")
    try await pool.write { db in try db.execute(sql: "DELETE FROM timer WHERE id = ?", arguments: [id]) }
    return .noContent
}
let port = Int(CommandLine.arguments[2]) ?? 8090
try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port))).runService()
"""


def c_now_floor(scratch):
    """The C floor's binary (built with the system's compiler and SQLite; `libsqlite3-dev`)."""
    source, binary = os.path.join(scratch, "now-floor.c"), os.path.join(scratch, "c-now-floor")
    write_changed(source, C_NOW)
    subprocess.run(["cc", "-O2", "-o", binary, source, "-lsqlite3"], check=True)
    return binary


def swift_hello(scratch):
    """A statically linked Swift hello world."""
    source, binary = os.path.join(scratch, "hello.swift"), os.path.join(scratch, "swift-hello")
    write_changed(source, 'print("Hello, world!")\n')
    subprocess.run(["swiftc", "-O", "-static-stdlib", source, "-o", binary], check=True, stdout=subprocess.DEVNULL)
    return binary


def stack_floors(scratch):
    """Builds (once; minutes the first time) the Swift package of the stack floors in `scratch`;
    returns the paths of `now-floor` and `write-floor`."""
    folder = os.path.join(scratch, "stack")
    print(f"the stack floors: built in {folder} (minutes the first time)", file=sys.stderr, flush=True)
    bin_path = scratch_package(folder, STACK_PACKAGE, {"now-floor": NOW_FLOOR, "write-floor": WRITE_FLOOR})
    return os.path.join(bin_path, "now-floor"), os.path.join(bin_path, "write-floor")
