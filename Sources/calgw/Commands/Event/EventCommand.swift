import ArgumentParser
import CalendarSync

/// `calgw event`: create, edit and delete events — one occurrence, this and the following
/// ones, or the whole series — in the vdir and on the server.
struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Create, edit and delete events, recurring ones included.",
        discussion: """
            Changes are written to the vdir and then to the server in the same command; with \
            --offline they stay in the vdir and go to the server with the next `calgw push` or \
            `calgw sync`. On a pair with collections (an account), --collection NAME picks the \
            calendar: its folder under the pair's `local`.
            """,
        subcommands: [
            EventAddCommand.self, EventEditCommand.self, EventDeleteCommand.self, EventOpenCommand.self,
            EventReplyCommand.self,
        ]
    )
}

/// Options every `event` subcommand takes.
struct EventOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Flag(help: "Write the vdir only; the change goes to the server with the next push or sync.")
    var offline = false

    @Option(
        help: ArgumentHelp(
            "For a pair with collections: the calendar (its folder name); default: the pair's default_collection, or its only calendar.",
            valueName: "name"))
    var collection: String?

    @Option(
        help: ArgumentHelp(
            "The zone times are read in and events are made in (default: the system's).",
            valueName: "zone"))
    var tz: String?

    var time: TimeArgument { TimeArgument(zone: tz) }
}
