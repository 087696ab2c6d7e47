import ArgumentParser
import Crypto
import Foundation
import GRDB
import Logging

/// `list`'s options as calgw declares them (three option groups and a folder), under a root
/// command with one subcommand: what swift-argument-parser's parse of a calgw command costs at
/// the least. The command returns; what it would do with more arguments links the libraries
/// calgw is built on (a journal in SQLite through GRDB, SHA-256, a logger, files and time
/// zones), so the floor maps and relocates what calgw's start must, and its conformance
/// checks read their records too.
struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor", subcommands: [List.self])
}

struct Global: ParsableArguments {
    @Option(name: [.customShort("c"), .long], help: "The config file.") var config: String?
    @Option(help: "The pair.") var pair: String?
    @Flag(help: "Every pair.") var all = false
}

struct Output: ParsableArguments {
    @Flag(name: .long, help: "JSON.") var json = false
    @Flag(name: .shortAndLong, help: "More.") var verbose: Int
    @Flag(name: .shortAndLong, help: "Quiet.") var quiet = false
}

struct Window: ParsableArguments {
    @Option(help: "Start.") var from: String
    @Option(help: "End.") var to: String
    @Flag(help: "Cancelled too.") var includeCancelled = false
    @Option(help: "Zone.") var tz: String?
}

struct List: ParsableCommand {
    @OptionGroup var global: Global
    @OptionGroup var output: Output
    @OptionGroup var window: Window
    @Option(help: "A folder.") var local: String?

    func run() throws {
        guard CommandLine.arguments.count > 99 else { return }
        let zone = TimeZone(identifier: window.tz ?? "Europe/Berlin")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone ?? .gmt
        let folder = URL(fileURLWithPath: local ?? ".")
        print(FileManager.default.fileExists(atPath: folder.path), calendar.component(.hour, from: Date()))
        let journal = try DatabaseQueue(path: folder.appendingPathComponent("journal.sqlite").path)
        let count = try journal.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        let digest = SHA256.hash(data: Data(window.from.utf8))
        Logger(label: "floor").info("\(count ?? 0) \(digest)")
    }
}

Floor.main()
