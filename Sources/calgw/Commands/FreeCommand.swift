import ArgumentParser
import CalendarSync
import ICalendar

/// `calgw free`: the slots free for the user and the people named, from the user's vdirs and
/// what the people's servers answer.
struct FreeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "free",
        abstract: "Find a time free for you and the people named.",
        discussion: """
            Your busy time comes from every pair's vdir (--pair, --all: those chosen), through \
            the listing index: free (TRANSP:TRANSPARENT), cancelled and declined events leave \
            it free. Each --attendee's is asked of a pair's server (a VFREEBUSY request to its \
            schedule Outbox, RFC 6638); one that cannot be asked is named, and the rest found. \
            --ics prints your own busy time as a VFREEBUSY, for publishing.

            Examples:
              calgw free --from 2027-03-08 --to 2027-03-13 --duration 1h --hours 09:00-17:00
              calgw free --from 2027-03-08 --to 2027-03-09 --attendee bob@example.org --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: ArgumentHelp("Start of the window.", valueName: "date")) var from: String
    @Option(help: ArgumentHelp("End of the window (exclusive).", valueName: "date")) var to: String
    @Option(help: ArgumentHelp("The least length of a slot (default 30m).", valueName: "length")) var duration = "30m"
    @Option(help: ArgumentHelp("Only these hours of each day, in your zone.", valueName: "HH:MM-HH:MM")) var hours:
        String?
    @Option(help: ArgumentHelp("Someone else whose busy time counts (repeatable).", valueName: "address"))
    var attendee: [String] = []
    @Flag(help: "Print your busy time as one VFREEBUSY (RFC 5545).") var ics = false
    @Option(help: ArgumentHelp("Zone for dates and hours (default: the system zone).", valueName: "zone")) var tz:
        String?

    func run() async throws {
        let window = try Window(from: from, to: to, tz: tz)
        let length = try DurationArgument.parse(duration, option: "--duration").approximateSeconds
        let finder: FreeTime
        do {
            finder = try FreeTime(from: window.from, to: window.to, duration: length, hours: hours, zone: window.zone)
        } catch { throw CLIError("\(error)", hint: "write --hours 09:00-17:00", status: .usage) }
        let cache = ConfigPaths().listIndexFolder.map { ListingCache(folder: $0) }
        let selected = try CalendarFiles.select(global: global, local: nil, command: "free", cache: cache)
        var listing = OccurrenceListing(
            listed: selected.listed, from: window.from, to: window.to, zone: window.zone, includeCancelled: false)
        listing.ownAddresses = selected.ownAddresses
        if ics {
            let busy = FreeTime.busy(in: listing)
            return Terminal.out(
                String(
                    decoding: ICalendarSerializer().serialize(
                        finder.freeBusy(busy, stamp: EventTarget.now().local.secondsSinceEpoch)), as: UTF8.self))
        }
        let pairs = try global.loadConfig().pairs.map { try $0.pair }
        let report = await finder.find(listing: listing, people: attendee, pairs: pairs)
        if output.json { return try Terminal.printJSON(report) }
        if !output.quiet { report.lines.forEach { Terminal.out($0) } }
    }
}
