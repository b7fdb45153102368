// swift-tools-version: 6.1
// Quire: an offline-first notes and tasks app for the terminal.
// Module layout and import rules: see ARCHITECTURE.md beside the checkout (../shared).
import PackageDescription

let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "Quire",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "quire", targets: ["quire"]),
        .executable(name: "quire-server", targets: ["quire-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        // MARK: - Pure core
        .target(name: "QuireCore"),
        .target(
            name: "QuireProtocol",
            dependencies: ["QuireCore", "QuireCrypto", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "TerminalUI"),
        .target(name: "QuireUI", dependencies: ["QuireCore", "TerminalUI", "CCmarkGFM"]),
        // CommonMark with GitHub's extensions for the rendered notes; Debian's headers live in
        // /usr/include and the module map links both libraries.
        .systemLibrary(name: "CCmarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // End-to-end encryption's keys, sealing and MACs. libsodium (Argon2id, XChaCha20-Poly1305,
        // keyed BLAKE2b) as cmark-gfm: Debian's header in /usr/include, the module map links it.
        .target(name: "QuireCrypto", dependencies: ["CSodium"]),
        .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"])]),

        // MARK: - Shells
        .target(
            name: "QuireStore",
            dependencies: [
                "QuireCore", grdb, .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 of attached files, the attachment store's addresses.
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "QuireSync",
            dependencies: [
                "QuireCore", "QuireProtocol", "QuireStore", "QuireCrypto", grdb, logging,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .target(
            name: "QuireServer",
            dependencies: [
                "QuireCore", "QuireCrypto", "QuireProtocol", grdb, logging,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // No pkgConfig: ncursesw's .pc adds feature macros SwiftPM refuses (and warns about);
        // the headers live in /usr/include on Debian and the module map links ncursesw itself.
        .systemLibrary(name: "CNCurses", providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "NCursesBackend", dependencies: ["CNCurses", "TerminalUI"]),
        .target(name: "QuireApp", dependencies: ["QuireCore", "QuireUI", "QuireStore", "QuireSync", "TerminalUI"]),

        // MARK: - Executables
        .executableTarget(
            name: "quire",
            dependencies: ["QuireCore", "QuireStore", "QuireSync", "QuireApp", "NCursesBackend", argumentParser]
        ),
        .executableTarget(
            name: "quire-server",
            dependencies: ["QuireServer", "QuireCore", argumentParser, logging]
        ),
        .executableTarget(
            name: "quire-bench",
            dependencies: [
                "QuireCore", "QuireStore", "QuireSync", "QuireProtocol", "QuireCrypto", "QuireUI", "QuireApp",
                "TerminalUI", argumentParser, .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "quire-loadgen",
            dependencies: [
                "QuireCore", "QuireCrypto", "QuireProtocol", "QuireSync", argumentParser,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // MARK: - Tests (Swift Testing), one target per module
        // What the test targets share: snapshots, waiting with a deadline, child processes.
        .target(name: "QuireTestSupport", dependencies: ["TerminalUI"], path: "Tests/QuireTestSupport"),
        .testTarget(name: "QuireCoreTests", dependencies: ["QuireTestSupport", "QuireCore"]),
        .testTarget(name: "QuireProtocolTests", dependencies: ["QuireProtocol", "QuireCore"]),
        .testTarget(name: "QuireCryptoTests", dependencies: ["QuireCrypto", "CSodium"]),
        .testTarget(name: "QuireStoreTests", dependencies: ["QuireTestSupport", "QuireStore", "QuireCore", grdb]),
        .testTarget(name: "QuireCLITests", dependencies: ["QuireTestSupport", "QuireCore", "QuireStore", grdb]),
        .testTarget(
            name: "QuireServerTests",
            dependencies: [
                "QuireTestSupport", "QuireServer", "QuireProtocol", "QuireCore", "QuireCrypto",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .testTarget(
            name: "QuireSyncTests",
            dependencies: [
                "QuireTestSupport", "QuireSync", "QuireStore", "QuireCore", "QuireProtocol", "QuireServer",
                "QuireCrypto",
                grdb,
            ]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["QuireCore", "QuireTestSupport", "TerminalUI"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "QuireUITests", dependencies: ["QuireTestSupport", "QuireUI", "QuireApp", "QuireCore", "TerminalUI"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "QuireAppTests",
            dependencies: [
                "QuireTestSupport", "QuireApp", "QuireUI", "QuireStore", "QuireSync", "QuireProtocol", "QuireCrypto",
                "QuireCore", "TerminalUI",
            ]
        ),
    ]
)

// Every executable is linked by lld (shipped with the Swift toolchain on Linux) with its relative
// relocations packed, and exports no symbols of its own: every command starts by relocating the
// whole binary, and the static standard library's `-export-dynamic` made the runtime's one
// `dladdr` look through every Swift symbol. Figures: the start-up section of BENCHMARKS.md.
let leanStart = LinkerSetting.unsafeFlags(
    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
    .when(platforms: [.linux]))
for target in package.targets where target.type == .executable {
    target.linkerSettings = (target.linkerSettings ?? []) + [leanStart]
}

// Every target of ours: `any` spelled out on existentials, and a file sees only the modules it
// imports (as Hummingbird builds), so a dependency is never reached by accident.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
