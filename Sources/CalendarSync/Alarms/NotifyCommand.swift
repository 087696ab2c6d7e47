/// The program `watch` runs when an alarm goes off (`notify_command` in the config): an argv
/// whose arguments may hold placeholders, replaced by the alarm's values and passed to the
/// program as they are, never through a shell (an event's title is text, not a command line).
///
/// ```toml
/// notify_command = ["notify-send", "--app-name=calgw", "{summary}", "{start}"]
/// ```
public struct NotifyCommand: Equatable, Sendable {
    /// The placeholders an argument may hold.
    public static let placeholders = ["summary", "start", "end", "location", "description", "trigger"]

    /// The argv as configured, placeholders unreplaced.
    public let arguments: [String]

    /// - Throws: a sentence saying what is wrong: an empty argv, or a `{name}` that is not
    ///   one of ``placeholders`` (a misspelt one would reach the program as written).
    public init(arguments: [String]) throws(Problem) {
        guard let program = arguments.first, !program.isEmpty else { throw Problem("must name a program") }
        for argument in arguments {
            for (name, _) in Self.placeholders(in: argument) where !Self.placeholders.contains(name) {
                throw Problem(
                    "has the placeholder {\(name)}, which calgw does not know "
                        + "(it knows {\(Self.placeholders.joined(separator: "}, {"))})"
                )
            }
        }
        self.arguments = arguments
    }

    /// Why an argv cannot be a notify command.
    public struct Problem: Error, Equatable {
        /// What is wrong, as a sentence's end: "must name a program".
        public var message: String
        /// The problem `message`.
        public init(_ message: String) { self.message = message }
    }

    /// The argv with each `{name}` replaced by `values[name]` (empty when it has none), in one
    /// pass: a value is never read for placeholders itself.
    public func argv(_ values: [String: String]) -> [String] {
        arguments.map { argument in
            var result = ""
            var rest = argument[...]
            for (name, range) in Self.placeholders(in: argument) where Self.placeholders.contains(name) {
                result += rest[rest.startIndex..<range.lowerBound]
                result += values[name] ?? ""
                rest = argument[range.upperBound...]
            }
            return result + rest
        }
    }

    /// The `{name}`s of `text` (a name of lower-case letters and `_`), with their ranges.
    static func placeholders(in text: String) -> [(name: String, range: Range<String.Index>)] {
        var found: [(String, Range<String.Index>)] = []
        var i = text.startIndex
        while let open = text[i...].firstIndex(of: "{") {
            let afterOpen = text.index(after: open)
            guard let close = text[afterOpen...].firstIndex(of: "}") else { break }
            let name = text[afterOpen..<close]
            if !name.isEmpty, name.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) }) {
                found.append((String(name), open..<text.index(after: close)))
                i = text.index(after: close)
            } else {
                i = afterOpen
            }
        }
        return found
    }
}
