// swift-tools-version: 6.1
import PackageDescription

/// The floor of a command's fixed cost for a program made of the parts calgw is made of: Swift's
/// runtime and Foundation linked statically, swift-argument-parser parsing `list`'s own
/// options, GRDB (and SQLite), swift-crypto, swift-log, libxml2 and Zstandard linked, and
/// nothing else done (Scripts/bench/startup measures it beside calgw).
let package = Package(
    name: "startup-floor",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .executableTarget(
            name: "startup-floor",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            linkerSettings: [.linkedLibrary("xml2"), .linkedLibrary("zstd"), .linkedLibrary("lz4")])
    ]
)
