import ArgumentParser

/// The `calgw` command: keeps a vdir in two-way sync with a CalDAV server.
@main
struct Calgw: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calgw",
        abstract: "Keep a directory of .ics files in two-way sync with a CalDAV server.",
        version: "0.1.0",
        subcommands: []
    )
}
