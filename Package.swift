// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "presencetop",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "presencetop", targets: ["presencetop"]),
        .library(name: "RTDBCore", targets: ["RTDBCore"]),
        .library(name: "RTDBWire", targets: ["RTDBWire"]),
        .library(name: "RTDBRules", targets: ["RTDBRules"]),
        .library(name: "RTDBServer", targets: ["RTDBServer"]),
        .library(name: "RTDBClient", targets: ["RTDBClient"]),
        .library(name: "LinkSim", targets: ["LinkSim"]),
        .library(name: "PresenceModel", targets: ["PresenceModel"]),
        .library(name: "Presence", targets: ["Presence"]),
        .library(name: "WatchModel", targets: ["WatchModel"]),
        .library(name: "PresenceLab", targets: ["PresenceLab"]),
        .library(name: "Dashboard", targets: ["Dashboard"]),
        .library(name: "DashboardRuntime", targets: ["DashboardRuntime"]),
        .library(name: "LabDashboard", targets: ["LabDashboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras.git", from: "1.4.3"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "RTDBCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "RTDBWire",
            dependencies: [
                "RTDBCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // Security rules: the language, its checks and their evaluation over the data.
        .target(name: "RTDBRules", dependencies: ["RTDBCore"]),
        // A child process and the one way to wait on it (its output, its end), for the chaos
        // run's server, the benchmarks' helpers and the tests.
        .target(
            name: "ChildProcesses",
            dependencies: ["RTDBCore", .product(name: "Subprocess", package: "swift-subprocess")]),
        // Rows written by the thousand through SQLite's C API, parameters bound in place, in GRDB's
        // transactions: the server's log and the client's acknowledgements.
        .target(
            name: "RawSQLite",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "RTDBServer",
            dependencies: [
                "RawSQLite",
                "RTDBCore",
                "RTDBRules",
                "RTDBWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "RTDBClient",
            dependencies: [
                "RTDBCore",
                "RTDBWire",
                "RawSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for reading a restart's thousands of rows in place.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Signs a service account's assertion (RS256) for Google's token endpoint.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                // Its errors, to say in plain words why a connection failed.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The WebSocket client: swift-nio's HTTP upgrade and frame codec.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "LinkSim",
            dependencies: [
                "RTDBCore",
                .product(name: "DequeModule", package: "swift-collections"),
                // The control interface of a standalone link (`presencetop proxy`).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Presence as values: a user's devices and lastOnline, the layouts presence is kept in, a
        // change. RTDBCore only, so that what shows presence needs no engine.
        .target(name: "PresenceModel", dependencies: ["RTDBCore"]),
        // The presence component an app uses: a device's session, the directory of everyone's
        // presence, the rules as text. Client side only: RTDBClient → Presence (which re-exports
        // PresenceModel).
        .target(name: "Presence", dependencies: ["PresenceModel", "RTDBCore", "RTDBClient"]),
        // What a watched database shows (the lab, your own project, a recording), as values: its
        // snapshots and events, the summaries of a device's cache, onDisconnects, queue and the
        // rules, and the readers of the text files (TOML) that scenarios, themes and settings
        // share. RTDBCore, PresenceModel and TOMLKit only.
        .target(
            name: "WatchModel",
            dependencies: ["PresenceModel", "RTDBCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // A fault-injecting SQLite VFS (a full disk, failing and held syncs), as SQLite's own tests
        // use, for tests and the chaos lab; C in one place, and the Swift face of it.
        .target(name: "CSQLiteFaults", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "DiskFaults", dependencies: ["CSQLiteFaults"]),
        // The lab around it: an embedded server, links, a simulated population, scenarios, this
        // device, the chaos run. Presence, RTDBServer, LinkSim, DiskFaults → PresenceLab.
        .target(
            name: "PresenceLab",
            dependencies: [
                "WatchModel", "Presence", "RTDBCore", "RTDBWire", "RTDBRules", "RTDBServer", "RTDBClient", "LinkSim",
                "DiskFaults", "ChildProcesses", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // Pure: state, actions, reducer, layout, widgets and themes, rendered to a cell grid, from
        // the watched database's snapshots and events as values (WatchModel → Dashboard). Never
        // the lab, the engine, the server or the links: DependencyRuleTests fails on an import.
        .target(
            name: "Dashboard",
            dependencies: ["WatchModel", "PresenceModel", "RTDBCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // The dashboard's loop, apart from any terminal or engine: it takes a terminal, a source
        // and a clock (MemoryTerminal keeps every frame, for tests). Dashboard, WatchModel → here.
        .target(
            name: "DashboardRuntime",
            dependencies: [
                "Dashboard", "WatchModel", "RTDBCore", .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The lab as the dashboard's source: a live simulation drives the loop (with ncurses in
        // presencetop, with MemoryTerminal in tests). PresenceLab, DashboardRuntime → here.
        .target(name: "LabDashboard", dependencies: ["Dashboard", "DashboardRuntime", "PresenceLab", "RTDBCore"]),
        // What a benchmark runs, in one place for the timed run and the instruction count.
        .target(
            name: "BenchWorkloads",
            dependencies: [
                "RTDBCore", "RTDBWire", "RTDBRules", "RTDBClient", "Presence",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One workload alone (latency, or a write message's parse), for valgrind (which cannot
        // load the whole binary).
        .executableTarget(
            name: "presencetop-latency-probe", dependencies: ["BenchWorkloads"], path: "Sources/LatencyProbe"),
        // ncursesw itself: the header and the shims for its macros (apt: libncursesw5-dev).
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncursesw5-dev"])]),
        // The only code that touches ncurses.
        .target(name: "CursesBackend", dependencies: ["CNcursesw", "Dashboard", "RTDBCore"]),
        .executableTarget(
            name: "presencetop",
            dependencies: [
                "RTDBCore",
                "RTDBRules",
                "RTDBServer",
                "RTDBClient",
                "RTDBWire",
                "LinkSim",
                "Presence",
                "PresenceLab",
                "Dashboard",
                "DashboardRuntime",
                "LabDashboard",
                "CursesBackend",
                "DiskFaults",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The benchmarks, apart from the tool they measure (they start `presencetop` beside them).
        .executableTarget(
            name: "presencetop-bench",
            dependencies: [
                "RTDBCore", "RTDBRules", "RTDBServer", "RTDBClient", "RTDBWire", "LinkSim", "Presence", "PresenceLab",
                "Dashboard", "BenchWorkloads", "DiskFaults", "ChildProcesses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The one-way rule between the layers, read from the sources (no module dependencies).
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "RTDBCoreTests", dependencies: ["RTDBCore"]),
        .testTarget(name: "RTDBWireTests", dependencies: ["RTDBWire"]),
        .testTarget(name: "RTDBRulesTests", dependencies: ["RTDBRules", "RTDBCore"]),
        .testTarget(
            name: "RawSQLiteTests",
            dependencies: [
                "RawSQLite", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .target(
            name: "RTDBTestSupport",
            dependencies: [
                "ChildProcesses",
                "DiskFaults",
                "RTDBClient",
                "RTDBRules",
                "RTDBServer",
                "RTDBWire",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/RTDBTestSupport"
        ),
        .testTarget(
            name: "RTDBServerTests",
            dependencies: [
                "RTDBServer", "RTDBRules", "RTDBWire", "RTDBTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                // A session's channel handlers, each alone in an EmbeddedChannel.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
        // Fuzzing (scripts/fuzz): the targets, libFuzzer's entry point, and the replay of the corpus
        // and of every crash found as tests.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "RTDBCore", "RTDBWire", "RTDBRules", "RTDBServer", "RTDBClient", "PresenceLab", "Dashboard",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Tests/FuzzTargets"
        ),
        .executableTarget(name: "presencetop-fuzz", dependencies: ["FuzzTargets"], path: "Tests/Fuzz"),
        .testTarget(
            name: "FuzzTargetTests", dependencies: ["FuzzTargets", "RTDBCore", "RTDBClient"],
            resources: [.copy("Corpus")]),
        .executableTarget(name: "CrashWriter", dependencies: ["RTDBClient"], path: "Tests/CrashWriter"),
        .testTarget(
            name: "RTDBClientTests",
            dependencies: [
                "RTDBClient", "RTDBRules", "RTDBTestSupport", "CrashWriter",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // A hostile WebSocket server for the client's transport.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // swift-nio's own frame encoder, against which the client's is checked.
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "LinkSimTests",
            dependencies: [
                "LinkSim", "RTDBClient", "RTDBTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .testTarget(
            name: "PresenceTests",
            dependencies: ["Presence", "PresenceLab", "RTDBClient", "RTDBWire", "RTDBTestSupport"]),
        .testTarget(
            name: "PresenceLabTests",
            dependencies: [
                "PresenceLab", "Presence", "LinkSim", "RTDBClient", "RTDBRules", "RTDBWire", "RTDBTestSupport",
                "ChildProcesses",
            ]),
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "Dashboard", "WatchModel", "PresenceModel", "RTDBCore",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DashboardRuntimeTests", dependencies: ["DashboardRuntime", "Dashboard", "WatchModel", "RTDBCore"]),
        // The dashboard's loop on a live simulation (a real server on loopback), in memory.
        .testTarget(
            name: "LabDashboardTests",
            dependencies: [
                "LabDashboard", "DashboardRuntime", "Dashboard", "WatchModel", "PresenceLab", "RTDBCore",
                "RTDBClient", "LinkSim", "RTDBTestSupport",
            ]),
        .testTarget(
            name: "presencetopTests",
            dependencies: [
                "presencetop", "RTDBTestSupport", "BenchWorkloads",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
