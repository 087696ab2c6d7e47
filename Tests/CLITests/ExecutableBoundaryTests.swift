import Foundation
import Testing
import CalgwTestSupport

/// The executable asks the library, and only through its way in: what the compiler cannot keep
/// within one package (a `package` declaration is visible to every target of it), this test
/// keeps. It reads the executable's sources.
@Suite struct ExecutableBoundaryTests {
    /// Each Swift file of `Sources/calgw`, with its path relative to it.
    static func sources() throws -> [(path: String, text: String)] {
        let root = TestPaths.packageRoot.appendingPathComponent("Sources/calgw")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw FixtureFailure("cannot list \(root.path)")
        }
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            files.append(
                (String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func theExecutableImportsNoModuleBelowTheLibrary() throws {
        let files = try Self.sources()
        #expect(files.count > 20, "found only \(files.count) source files")
        for (path, text) in files {
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(
                    !["CalDAV", "HTTP", "VDir", "CCurl", "CXMLStream", "CFileSystem", "GRDB"].contains(module),
                    "\(path): \(line)")
            }
        }
    }

    @Test func theExecutableRunsPairsOnlyThroughPairRun() throws {
        for (path, text) in try Self.sources() {
            for name in ["SyncEngine", "SyncSession", "Journal."] {
                #expect(!text.contains(name), "\(path) names \(name): the executable runs a pair through PairRun")
            }
        }
    }

    /// The executable parses, calls the library and renders: what grows past this holds work
    /// that belongs in a library module (docs/architecture.md says which).
    @Test func theExecutableStaysThin() throws {
        let lines = try Self.sources().reduce(0) {
            $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        #expect(lines <= 4_500, "Sources/calgw has \(lines) lines")
    }
}
