import CalgwTestSupport
import Foundation
import Testing

/// Provider and server-product names stay in their rooms: `Providers/<name>/`, the facts
/// registry (`Servers/Facts/`) and the config reader's table of names (`Config/ConfigFile.swift`).
/// Everywhere else the code asks a provider or a fact, so that the next server is a facts entry
/// and the next provider a folder. Comments may still say which server a rule was learnt from:
/// the test reads code only (string literals included).
@Suite struct ProviderRoomTests {
    /// Names of providers and products as code would spell them to single one out.
    static let names = [
        "google", "graph", "outlook", "davical", "cyrus", "fastmail", "sogo", "sabre", "nextcloud", "owncloud",
        "baikal", "radicale", "xandikos", "icloud", "zimbra", "stalwart", "synology",
    ]

    /// Folders (relative to `Sources/`) and files where the names live.
    static let rooms = [
        "CalendarSync/Providers/", "CalendarSync/Servers/Facts/", "calgw/Config/ConfigFile.swift",
    ]

    /// Each Swift file of `Sources/CalendarSync` and `Sources/calgw`, with its path relative to
    /// `Sources/`.
    static func sources() throws -> [(path: String, text: String)] {
        let root = TestPaths.packageRoot.appendingPathComponent("Sources")
        var files: [(String, String)] = []
        for module in ["CalendarSync", "calgw"] {
            let folder = root.appendingPathComponent(module)
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                throw FixtureFailure("cannot list \(folder.path)")
            }
            for case let url as URL in walker where url.pathExtension == "swift" {
                files.append(
                    (String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// A line's code: what precedes a `//` comment outside a string literal. A line of a
    /// multi-line string literal (help text, a command's discussion) is help for people,
    /// like a comment, and is left out with the literal's delimiters.
    static func code(of text: String) -> [(line: Int, code: String)] {
        var result: [(Int, String)] = []
        var inBlock = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("\"\"\"") || trimmed.hasPrefix("\"\"\"") || trimmed.contains("\"\"\"") {
                inBlock.toggle()
                continue
            }
            if inBlock || trimmed.hasPrefix("//") { continue }
            var code = ""
            var inString = false
            var previous: Character = " "
            for character in line {
                if character == "\"" && previous != "\\" { inString.toggle() }
                if !inString && character == "/" && previous == "/" {
                    code.removeLast()
                    break
                }
                code.append(character)
                previous = character
            }
            result.append((index + 1, code))
        }
        return result
    }

    @Test func noProviderOrProductIsNamedOutsideItsRoom() throws {
        let files = try Self.sources()
        #expect(files.count > 300, "found only \(files.count) source files")
        var found: [String] = []
        for (path, text) in files where !Self.rooms.contains(where: { path.hasPrefix($0) }) {
            for (line, code) in Self.code(of: text) {
                let lowered = code.lowercased()
                for name in Self.names where lowered.contains(name) && !Self.isModuleName(name, in: code) {
                    found.append("\(path):\(line): \(name): \(code.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(
            found.isEmpty, "\(found.count) lines name a provider outside its room:\n\(found.joined(separator: "\n"))")
    }

    /// The Graph JSON module (`import Graph`) is a room of its own, named for what it holds.
    static func isModuleName(_ name: String, in code: String) -> Bool {
        name == "graph" && code.trimmingCharacters(in: .whitespaces) == "import Graph"
    }

    /// The test's reading of code leaves comments and help text out, and keeps literals.
    @Test func commentsAndHelpTextAreNotCode() {
        let text = """
            let a = "Graph" // graph
            /// Google
            x = 1 // y "sogo"
            """
        let code = Self.code(of: text).map(\.code)
        #expect(code == ["let a = \"Graph\" ", "x = 1 "])
    }
}
