import ArgumentParser
import CalendarSync

/// `--conflict merge|newest|local-wins|remote-wins|keep-both|ask`, parsed and completed by the
/// argument parser from the library's own strategies.
extension ConflictStrategy: ExpressibleByArgument {}
