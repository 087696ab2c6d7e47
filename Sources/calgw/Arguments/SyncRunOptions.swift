import ArgumentParser
import CalendarSync

/// Options of `pull`, `push` and `sync`.
struct SyncRunOptions: ParsableArguments {
    @Flag(help: "Print what would be done; change nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("How to resolve conflicts, instead of the pair's setting.", valueName: "strategy"))
    var conflict: ConflictStrategy?

    @Flag(help: "Propagate the deletion of everything on one side (refused by default).")
    var allowMassDelete = false

    @Option(
        help: ArgumentHelp(
            "For a pair with collections: work on this calendar (its folder name) only.", valueName: "name"))
    var collection: String?

    @Flag(
        help:
            "For a pair with collections: a calendar deleted on one side is deleted on the other (its folder and events, or the calendar on the server). By default it is reported and left alone."
    )
    var allowCollectionDelete = false

    /// The library's options of a run in `direction`.
    func options(_ direction: SyncDirection) -> PairRun.Options {
        var options = PairRun.Options(direction: direction, conflict: conflict)
        options.allowMassDelete = allowMassDelete
        options.dryRun = dryRun
        options.collection = collection
        options.allowCollectionDelete = allowCollectionDelete
        options.faultHook = TestFaultHook.fromEnvironment()
        if !dryRun { options.stop = StopSignals.gate }
        return options
    }
}
