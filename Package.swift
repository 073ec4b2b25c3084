// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "sipwake",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sipwake", targets: ["sipwake"]),
        .executable(name: "sip-fuzz", targets: ["sip-fuzz"]),
        .executable(name: "sip-flood", targets: ["sip-flood"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // System libraries, found with pkg-config.
        .systemLibrary(
            name: "CSofiaSIP",
            pkgConfig: "sofia-sip-ua",
            providers: [.apt(["libsofia-sip-ua-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // What Swift cannot call on its own: Sofia's tag-list varargs and macros.
        .target(
            name: "CSofiaShim",
            dependencies: ["CSofiaSIP"]
        ),
        // Sofia's user agent API for the test phones: linked by tests only.
        .target(
            name: "CSofiaTestShim",
            dependencies: ["CSofiaSIP", "CSofiaShim"],
            path: "Tests/CSofiaTestShim"
        ),
        // Swift view of Sofia-SIP: the loop and its executor, the agent, messages.
        .target(
            name: "SIPCore",
            dependencies: [
                "Model", "CSofiaSIP", "CSofiaShim",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The values the core and the adapters share: bindings, device
        // tuples, call records and outcomes, the transport. No dependencies.
        .target(name: "Model"),
        // The protocols the core needs from the world: stores, push
        // providers, the clock. Adapters implement them; callers name only
        // these. Imports the model, nothing else.
        .target(name: "Ports", dependencies: ["Model"]),
        // Pure registrar rules, location table and digest authentication.
        .target(
            name: "Registrar",
            dependencies: [
                "Model",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // What every database adapter shares: the group-commit writers
        // (`BindingWriter`, `CallRecordWriter`) on one `BatchingWriter`, the
        // checks made before a transaction, a call record's stored form.
        .target(
            name: "StorageSupport",
            dependencies: [
                "Model", "Ports",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Storage/Support"
        ),
        // The SQLite adapter of the store ports: schema, migrations, the
        // stores. The embedded default.
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "Model", "Ports", "StorageSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Storage/SQLite"
        ),
        // The PostgreSQL adapter of the same ports, for several nodes sharing
        // one database: schema and migrations, the stores, the two writers,
        // the tuple change head kept fresh in the background.
        .target(
            name: "PostgreSQLStorage",
            dependencies: [
                "Model", "Ports", "StorageSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Storage/PostgreSQL"
        ),
        // sipwake.toml, environment overrides, validation.
        .target(
            name: "Config",
            dependencies: ["TOMLKit"]
        ),
        // Push delivery: providers (the Acrobits gateway, APNs, FCM), their
        // credentials (JWTs, OAuth tokens), payload formats, the libcurl
        // transport on its own thread, answers classified.
        .target(
            name: "Push",
            dependencies: [
                "Model", "Ports", "CCurl",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // A local push service for labs and tests: plays the Acrobits gateway,
        // APNs, FCM and Google's OAuth endpoint over HTTP/2 and TLS, records
        // every push, answers like the real services, and can be told to fail.
        .target(
            name: "PushSink",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The call state machine: pairing id, branches, late forking, endings.
        // Pure: events in, actions out, injected clock.
        .target(
            name: "Forking",
            dependencies: ["Model"]
        ),
        // HTTP: the Push Token Reporter and Account Removal Reporter endpoints,
        // the admin API (bearer token), health.
        .target(
            name: "API",
            dependencies: [
                "Model", "Ports", "Registrar",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Wiring: the SIP service, the registrar service, lifecycle.
        .target(
            name: "SIPWake",
            dependencies: [
                "Model", "Ports", "SIPCore", "Registrar", "StorageSupport", "SQLiteStorage", "PostgreSQLStorage", "Config", "API", "Push", "Forking",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The release number and the git commit the binary was built from.
        .target(
            name: "BuildInfo",
            plugins: ["GitCommit"]
        ),
        // Reads `git rev-parse --short HEAD` before every build ("unknown"
        // outside a git checkout) into BuildInfo.
        .plugin(
            name: "GitCommit",
            capability: .buildTool()
        ),
        .executableTarget(
            name: "sipwake",
            dependencies: [
                "SIPWake", "BuildInfo", "Model", "Ports", "Config", "StorageSupport", "SQLiteStorage", "PostgreSQLStorage", "Registrar", "SIPCore", "PushSink", "Push",
                "CCurl",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Measurements, not tests: `swift run -c release binding-memory`.
        .executableTarget(
            name: "binding-memory",
            dependencies: [
                "Model", "Registrar", "SQLiteStorage",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/BindingMemory"
        ),
        // Attack tools (docs/security.md): they talk to a live sipwake over
        // loopback only and share nothing with the server's code, so a bug in
        // the product cannot hide itself from them.
        .systemLibrary(
            name: "CLibSSL",
            path: "Tools/CLibSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // Sockets, TLS client, loopback targets, the target's memory, statistics.
        .target(
            name: "SIPAttackSupport",
            dependencies: ["CLibSSL"],
            path: "Tools/SIPAttackSupport"
        ),
        // The fuzzing engine: seeds, mutations, liveness, saved inputs, replay.
        .target(
            name: "SIPFuzz",
            dependencies: ["SIPAttackSupport"],
            path: "Tools/SIPFuzz"
        ),
        // The INVITE flood and the digest-authenticated REGISTER probe.
        .target(
            name: "SIPFlood",
            dependencies: [
                "SIPAttackSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tools/SIPFlood"
        ),
        // The command-line options both attack tools take.
        .target(
            name: "AttackCommandLine",
            dependencies: [
                "SIPAttackSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/AttackCommandLine"
        ),
        .executableTarget(
            name: "sip-fuzz",
            dependencies: [
                "SIPFuzz", "SIPAttackSupport", "AttackCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/sip-fuzz"
        ),
        .executableTarget(
            name: "sip-flood",
            dependencies: [
                "SIPFlood", "SIPAttackSupport", "AttackCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/sip-flood"
        ),
        // What several test targets share: log capture, sample push devices.
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "RegistrarTests", dependencies: ["Registrar", "Model"]),
        .testTarget(name: "SIPCoreTests", dependencies: ["SIPCore", "Model", "CSofiaSIP"]),
        .testTarget(name: "AttackToolTests", dependencies: ["SIPFuzz", "SIPFlood", "SIPAttackSupport"]),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Model", "Ports", "StorageSupport", "SQLiteStorage", "PostgreSQLStorage", "Registrar", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ConfigTests", dependencies: ["Config"]),
        .testTarget(name: "ForkingTests", dependencies: ["Forking", "Model"]),
        .testTarget(
            name: "PushTests",
            dependencies: [
                "Push", "PushSink", "Model", "Ports", "TestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA test keys for the FCM service account.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // A plain-HTTP OAuth endpoint and APNs/FCM stand-in in the tests.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "SIPWakeTests",
            dependencies: [
                "SIPWake", "SIPCore", "Model", "Ports", "Registrar", "Config", "Forking", "SQLiteStorage", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "APITests",
            dependencies: [
                "API", "Model", "Ports", "SQLiteStorage", "Registrar", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "SIPCore", "Model", "Ports", "Registrar", "StorageSupport", "SQLiteStorage", "PostgreSQLStorage", "Config", "CSofiaSIP", "CSofiaShim", "CSofiaTestShim", "PushSink",
                "SIPWake", "SIPFuzz", "SIPAttackSupport", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Replayed by FuzzRegressionTests, read through #filePath.
            exclude: ["FuzzRegressions"]
        ),
    ]
)
