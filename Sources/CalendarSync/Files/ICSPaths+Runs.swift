extension ICSPaths {
    /// Many file arguments (`calgw lint ~/calendars/work/*.ics`) made a few words for a command
    /// line parser that takes a repeated argument one word at a time, copying what it holds so
    /// far each time (swift-argument-parser: 8,000 names took 1.7 s, 50,000 would take a
    /// minute). After index `start` (the command's name), each run of words that are not
    /// options keeps its first word as it is (the value of the option before it, when that
    /// takes one) and the rest joined with NUL, a byte no argument can hold; after `--` every
    /// word is in the run. ``splitRuns(_:)`` takes them apart again. Up to ``runThreshold``
    /// words after the command nothing is joined, so that errors name the words as given.
    public static func joiningRuns(_ words: [String], after start: Int) -> [String] {
        guard words.count - start > runThreshold else { return words }
        var result = Array(words[..<start])
        var run: [String] = []
        func flush() {
            result += run.prefix(1)
            if run.count > 1 { result.append(run.dropFirst().joined(separator: "\0")) }
            run = []
        }
        var ended = false
        for word in words[start...] {
            if ended || !word.hasPrefix("-") || word == "-" {
                run.append(word)
                continue
            }
            flush()
            result.append(word)
            ended = word == "--"
        }
        flush()
        return result
    }

    /// How many words after the command ``joiningRuns(_:after:)`` leaves as they are.
    public static let runThreshold = 64

    /// The paths of `words`, those ``joiningRuns(_:after:)`` joined taken apart, in order.
    public static func splitRuns(_ words: [String]) -> [String] {
        words.flatMap { $0.split(separator: "\0", omittingEmptySubsequences: false).map(String.init) }
    }
}
