import Foundation
import Testing

/// No function of the library's engine or the executable runs past 80 lines: a longer one
/// holds steps that deserve names of their own. Functions, initialisers and computed
/// properties are measured from their declaration to their closing brace.
@Suite struct FunctionLengthTests {
    static let limit = 80

    /// Whether `line` declares a function, an initialiser or a computed property whose body
    /// follows.
    static func declares(_ line: Substring) -> Bool {
        var words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
        let modifiers: Set<Substring> = [
            "public", "private", "fileprivate", "internal", "package", "static", "class", "override", "mutating",
            "nonisolated", "final", "required", "convenience", "@discardableResult", "@inlinable", "@MainActor",
        ]
        while let first = words.first, modifiers.contains(first) || first.hasPrefix("@") { words.removeFirst() }
        guard let first = words.first else { return false }
        if first == "func" { return true }
        if first.hasPrefix("init(") || first.hasPrefix("init<") || first.hasPrefix("init?(") { return true }
        return first == "var" && line.contains(":") && !line.contains("=") && line.hasSuffix("{")
    }

    /// The braces of a line's code that open minus those that close, outside string literals
    /// and comments.
    static func depthChange(_ line: Substring) -> Int {
        var change = 0
        var inString = false
        var previous: Character = " "
        for character in line {
            if character == "\"" && previous != "\\" { inString.toggle() }
            if !inString {
                if character == "/" && previous == "/" { break }
                if character == "{" { change += 1 }
                if character == "}" { change -= 1 }
            }
            previous = character
        }
        return change
    }

    /// Each function longer than the limit in `text`: its first line number and length.
    static func longFunctions(in text: String) -> [(line: Int, length: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [(Int, Int)] = []
        for (start, line) in lines.enumerated() where declares(line) {
            var depth = 0
            var opened = false
            var inBlock = false
            var end = start
            while end < lines.count {
                let current = lines[end]
                if current.components(separatedBy: "\"\"\"").count % 2 == 0 {
                    inBlock.toggle()
                } else if !inBlock {
                    depth += depthChange(current)
                    opened = opened || current.contains("{")
                }
                if opened && depth <= 0 { break }
                if !opened && end > start + 8 { break }
                end += 1
            }
            if opened && end - start + 1 > limit { found.append((start + 1, end - start + 1)) }
        }
        return found
    }

    @Test func noFunctionIsLongerThanTheLimit() throws {
        let files = try ProviderRoomTests.sources()
        var long: [String] = []
        for (path, text) in files {
            for (line, length) in Self.longFunctions(in: text) { long.append("\(path):\(line): \(length) lines") }
        }
        #expect(long.isEmpty, "functions over \(Self.limit) lines:\n\(long.joined(separator: "\n"))")
    }

    /// The measure finds a long function, and stops at its closing brace.
    @Test func theMeasureCountsToTheClosingBrace() {
        let body = (1...90).map { "    let x\($0) = \"{\" // }" }.joined(separator: "\n")
        let text = "func long() {\n\(body)\n}\nfunc short() {\n}\n"
        let found = Self.longFunctions(in: text)
        #expect(found.map(\.line) == [1])
        #expect(found.map(\.length) == [92])
    }
}
