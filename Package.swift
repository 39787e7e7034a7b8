// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Grove",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "grove", targets: ["grove"]),
        .library(name: "GroveCore", targets: ["GroveCore"]),
        .library(name: "GroveStore", targets: ["GroveStore"]),
    ],
    // `swift build --traits Postgres`: the sync server can keep its data in PostgreSQL (PostgresNIO).
    // The default build neither compiles nor links it.
    traits: [
        .trait(name: "Postgres", description: "The sync server's PostgreSQL store (grove sync-server --postgres URL)")
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own transport: its HTTP parser's errors are the client's (a malformed body is a 400).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // HTTP parts as HTTPTypes (what Hummingbird's channel handlers see): the request deadline.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Sync: the client's HTTP, the server's password hashes, token digests.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The sync server's metrics (`/metrics`), and its PostgreSQL store behind the `Postgres` trait.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Tests only: property-based checks of every parser and validator.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // gzip for both servers' answers (zlib through NIO's buffers).
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        // Pure domain of all four rooms: Foundation only, no clocks, no ids, no I/O.
        .target(name: "GroveCore"),
        // Process-wide SQLite settings that only C can make (`sqlite3_config` is variadic).
        .target(name: "GroveSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        // SQLite through GRDB: migrations, records, repositories, export / import.
        .target(
            name: "GroveStore",
            dependencies: [
                "GroveCore",
                "GroveSQLiteConfig",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for binding bulk imports without boxing each value.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-1 for name-based (v5) ids: an intention's id is derived from its period.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The commit this build came from (`BuildInfoPlugin` writes it before each build).
        .target(name: "GroveBuildInfo", dependencies: ["GroveCore"], plugins: ["BuildInfoPlugin"]),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // What both servers do for every request, whatever it asks: HEAD, the request log.
        .target(
            name: "GroveHTTP",
            dependencies: [
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The desktop around Grove: notifications and programs on the PATH (no server, no store).
        .target(name: "GroveSystem", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // A signal caught into a flag (only C may touch memory from a signal handler).
        .target(name: "GroveSignals"),
        // `grove mcp`: Grove's data for an assistant over the Model Context Protocol (stdio).
        .target(name: "GroveMCP", dependencies: ["GroveCore", "GroveStore"]),
        // The `grove` command tree.
        .target(
            name: "GroveCLI",
            dependencies: [
                "GroveCore",
                "GroveBuildInfo",
                "GroveStore",
                "GroveSystem",
                "GroveServer",
                "GroveRemote",
                "GroveSync",
                "GroveSignals",
                "GroveHTTP",
                "GroveMCP",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Grove's clients of services elsewhere, over HTTP: the language-model assistant, the
        // content-pack fetcher (with its refresh schedule) and Web Push. Used by `grove serve` and the CLI.
        .target(
            name: "GroveRemote",
            dependencies: [
                "GroveCore",
                "GroveStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `grove serve`: JSON API, server-rendered web app, live events, reminder scheduler.
        .target(
            name: "GroveServer",
            dependencies: [
                "GroveCore",
                "GroveHTTP",
                "GroveStore",
                // The account's encryption from the web app: the same operations as `grove sync`.
                "GroveSync",
                "GroveSystem",
                "GroveRemote",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")]
        ),
        // Device sync (SYNC.md): the server's store and routes, the push/pull client, the background loop.
        .target(
            name: "GroveSync",
            dependencies: [
                "GroveCore",
                "GroveHTTP",
                "GroveRemote",
                "GroveStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt for the passphrase (end-to-end sync): BoringSSL's, nothing to install.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ]
        ),
        .executableTarget(
            name: "grove", dependencies: ["GroveCLI"],
            // The static Swift runtime's link arguments export every symbol of the executable (tens of
            // thousands): the dynamic loader then searches them on every start. Nothing loads into
            // `grove` (no plugins, no dlopen), so keep them private: ~1.4 ms off every command's start.
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
                // A release `grove` carries its Swift runtime and Foundation (`-static-stdlib`, what
                // `--static-swift-stdlib` does at link time): it starts faster and needs only libc,
                // SQLite and zlib where it is installed. At link time only, so that the one release
                // build CI makes also builds the tests (the static SDK has no Testing module).
                // lld: the static archives' order does not matter to it (modules compiled against the
                // shared SDK name fewer of them than the static one needs).
                .unsafeFlags(
                    ["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(platforms: [.linux], configuration: .release)),
                // libstdc++ static too (`Linking/libstdc++.so`): ~10% off every command's start.
                .unsafeFlags(["-L", Context.packageDirectory + "/Linking"], .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("_FoundationICU", .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("CoreFoundation", .when(platforms: [.linux], configuration: .release)),
            ]),
        // A crash-test helper: writes focus sessions in a loop and acknowledges each commit on stdout.
        // Used by the store's durability tests (SIGKILL mid-write, two writers at once).
        .executableTarget(name: "grove-stress", dependencies: ["GroveCore", "GroveStore"]),
        // SYNC.md's convergence simulation (devices, a lossy network, the invariants), shared by the
        // sync tests (16 seeds) and `grove-sim`, which runs 200 on the release build in CI.
        .target(name: "GroveSimulation", dependencies: ["GroveCore", "GroveStore", "GroveSync"]),
        .executableTarget(name: "grove-sim", dependencies: ["GroveSimulation", "GroveSync"]),
        // What the test targets share: the heavy tests' queue, a causal wait bounded by `.timeLimit`,
        // a live server on 127.0.0.1, and a stand-in Web Push service that decrypts what it is sent.
        .target(
            name: "GroveTestSupport",
            dependencies: [
                "GroveCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // A hello-world Hummingbird server: the yardstick of `scripts/idle-wakeups.py`.
        .executableTarget(name: "grove-hello", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
        .testTarget(
            name: "GroveSystemTests", dependencies: ["GroveSystem", "GroveTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "GroveBuildInfoTests", dependencies: ["GroveBuildInfo", "GroveCore"]),
        .testTarget(name: "GroveMCPTests", dependencies: ["GroveMCP", "GroveStore", "GroveCore", "GroveTestSupport"]),
        .testTarget(
            name: "GroveHTTPTests",
            dependencies: [
                "GroveHTTP",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "GroveRemoteTests",
            dependencies: ["GroveRemote", "GroveStore", "GroveCore", "GroveTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "GroveCoreTests",
            dependencies: ["GroveCore", "GroveTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "GroveStoreTests",
            dependencies: ["GroveStore", "GroveCore", "GroveTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "GroveCLITests",
            dependencies: [
                "GroveCLI", "GroveStore", "GroveCore", "GroveTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "GroveSyncTests",
            dependencies: [
                "GroveSync", "GroveSimulation", "GroveStore", "GroveCore", "GroveHTTP", "GroveTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ]
        ),
        .testTarget(
            name: "GroveServerTests",
            dependencies: [
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                "GroveServer", "GroveRemote", "GroveStore", "GroveCore", "GroveSync", "GroveTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
