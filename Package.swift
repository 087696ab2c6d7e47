// swift-tools-version: 6.1
import PackageDescription

/// calgw: a vdir ⇄ CalDAV two-way sync tool and library.
///
/// Layers (imports point downward only):
///   calgw → CalendarSync → {VDir, CalDAV → HTTP, OAuth → HTTP, Graph, Recurrence, ICalendar,
///   KernelEvents (inotify, timerfd, signals, a program in the foreground)};
///   Recurrence → ICalendar;
///   Graph → ICalendar; every one of them → Failures (the error model);
///   Mail (scheduling messages by mail, RFC 6047) stands on Foundation alone
let package = Package(
    name: "calgw",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "calgw", targets: ["calgw"]),
        .library(name: "Failures", targets: ["Failures"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "Recurrence", targets: ["Recurrence"]),
        .library(name: "Graph", targets: ["Graph"]),
        .library(name: "HTTP", targets: ["HTTP"]),
        .library(name: "OAuth", targets: ["OAuth"]),
        .library(name: "CalendarSync", targets: ["CalendarSync"]),
        .library(name: "KernelEvents", targets: ["KernelEvents"]),
        .library(name: "Mail", targets: ["Mail"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // The one error model every layer's errors conform to: message, recovery, cause, kind.
        .target(name: "Failures"),
        // RFC 5545 parse / serialize, value types, time zones.
        .target(name: "ICalendar", dependencies: ["Failures"]),
        // RRULE / RDATE / EXDATE / override expansion and span edits on a series.
        .target(name: "Recurrence", dependencies: ["ICalendar", "Failures"]),
        // Microsoft Graph event JSON as Codable values, and its pure translation to and from iCalendar.
        .target(name: "Graph", dependencies: ["ICalendar", "Failures"]),
        // Meetings by mail (RFC 6047): an incoming mail read for its calendar parts (MIME, transfer
        // encodings, charsets, within bounds), and an outgoing scheduling message composed.
        .target(name: "Mail"),
        // Local storage: a directory of .ics files.
        .target(name: "VDir", dependencies: ["CFileSystem", "Failures"]),
        // syncfs(2), which Swift's Glibc module does not export.
        .target(name: "CFileSystem"),
        // mallopt(3), which Swift's Glibc module does not export.
        .target(name: "CMemory"),
        // CRC-32C in four lanes for the listing index's checksum, by the processor's CRC32
        // instruction where it has one.
        .target(name: "CChecksum"),
        // SIGINT and SIGTERM as a flag a run reads at its safe points (an async-signal-safe handler).
        .target(name: "CStopSignal"),
        .target(name: "CWallClock"),
        // What the kernel tells a long-running command, as descriptors for one poll(2): changed
        // files (inotify), a wall-clock time reached (timerfd), SIGINT and SIGTERM (a self-pipe).
        // Also a program run in the foreground with the terminal (the editor), and a private
        // file removed when a signal ends the process.
        .target(name: "KernelEvents", dependencies: ["CWallClock", "CStopSignal", "Failures"]),
        // Typed, non-variadic wrappers over libcurl (Swift cannot call variadic C), which load
        // libcurl the first time a request needs it (a command that makes none never maps it).
        .target(name: "CCurl"),
        // libxml2, found through pkg-config.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // libxml2's push (SAX) parser behind three plain callbacks, refusing DTDs, entities and
        // processing instructions: a multistatus is read as it arrives.
        .target(name: "CXMLStream", dependencies: ["CLibXML2"]),
        // Zstandard, found through pkg-config: the journal's merge bases are kept compressed.
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // LZ4, found through pkg-config: a first pull's merge bases, packed together, are kept
        // with it (a third of Zstandard's work for them).
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        // HTTP on libcurl: the transport seam, the client (retries, redirects, limits, TLS pins),
        // authentication (Basic, Digest, a bearer token), and the error every request to a
        // server fails with. CalDAV, Graph and sign-in all speak through it.
        .target(
            name: "HTTP",
            dependencies: [
                "CCurl", "Failures",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Sign-in: OAuth 2.0 for native apps (RFC 6749, 7636 PKCE, 8252 loopback redirect), the
        // token endpoint, the stored token and its file, over the HTTP client.
        .target(
            name: "OAuth",
            dependencies: [
                "HTTP", "Failures",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Remote storage: WebDAV/CalDAV requests and answers, discovery.
        .target(
            name: "CalDAV",
            dependencies: [
                "HTTP", "CXMLStream", "Failures",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Pairs and the servers they reach, journal, planner, executor, conflicts, span edits,
        // the occurrence listing and its index, the alarms' listing, schedule and record.
        .target(
            name: "CalendarSync",
            dependencies: [
                "ICalendar", "Recurrence", "VDir", "HTTP", "OAuth", "CalDAV", "Graph", "KernelEvents", "Failures",
                "Mail", "CZstd", "CLZ4", "CChecksum",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The command: parse, call one library entry point, render.
        .executableTarget(
            name: "calgw",
            dependencies: [
                "CalendarSync", "OAuth", "ICalendar", "Recurrence", "Failures", "KernelEvents", "CMemory",
                "CStopSignal", "Mail",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]),
        // Used only by tests and benchmarks, never shipped in a product: the test doubles and
        // fixtures (storages, the sync harness, the pairs and servers the CLI tests start from),
        // the one event builder, real-server launchers, the scripted HTTP transport. Free of swift-testing, so that the
        // benchmarks can use it; it throws where a fixture cannot set up what a test asked for.
        .target(name: "CalgwTestSupport", dependencies: ["CalendarSync", "HTTP", "CalDAV", "VDir"]),
        // The part of the test support that records through swift-testing: traits (a needed
        // server) and fixture checks that record an issue and let the test go on. Test targets only.
        .target(name: "CalgwTestTraits", dependencies: ["CalgwTestSupport"]),
        // Benchmarks, run by Scripts/bench/*, kept out of the test suite.
        .executableTarget(
            name: "calgw-bench-http", dependencies: ["HTTP", "CalDAV", "CalgwTestSupport"],
            path: "Benchmarks/HTTPBenchmark"),
        .executableTarget(
            name: "calgw-bench-caldav", dependencies: ["HTTP", "CalDAV", "CalgwTestSupport"],
            path: "Benchmarks/CalDAVBenchmark"),
        .executableTarget(
            name: "calgw-bench-listing-index",
            dependencies: ["CalendarSync", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/ListingIndexBenchmark"),
        .executableTarget(
            name: "calgw-bench-content", dependencies: ["CalendarSync"], path: "Benchmarks/ContentBenchmark"),

        // Each test target declares exactly the modules its files import.
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CalgwTestSupport"]),
        .testTarget(name: "RecurrenceTests", dependencies: ["Recurrence", "ICalendar", "CalgwTestSupport"]),
        .testTarget(name: "GraphTests", dependencies: ["Graph", "ICalendar", "Recurrence"]),
        .testTarget(name: "VDirTests", dependencies: ["VDir", "CalgwTestSupport"]),
        .testTarget(name: "OAuthTests", dependencies: ["OAuth"]),
        .testTarget(name: "MailTests", dependencies: ["Mail", "CalgwTestSupport"]),
        .testTarget(
            name: "HTTPTests", dependencies: ["HTTP", "CalDAV", "CCurl", "CalgwTestSupport"]),
        .testTarget(
            name: "CalDAVTests",
            dependencies: ["HTTP", "CalDAV", "CalendarSync", "CalgwTestSupport", "CalgwTestTraits"]),
        .testTarget(
            name: "CalendarSyncTests",
            dependencies: [
                "CalendarSync", "VDir", "HTTP", "OAuth", "CalDAV", "ICalendar", "Recurrence", "Failures", "CChecksum",
                "CalgwTestSupport",
                "CalgwTestTraits",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "calgw", "CalendarSync", "CalDAV", "ICalendar", "VDir", "CalgwTestSupport", "CalgwTestTraits",
                "CMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ]
)
