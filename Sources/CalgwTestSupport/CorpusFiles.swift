import Foundation

/// The `.ics` files of the shared conformance corpora, found at test time.
public enum CorpusFiles {
    /// Every `.ics` file under `../shared/corpora/`, sorted by path. Empty when the folder is
    /// missing; callers assert on that so a missing corpus fails loudly.
    public static func icsFiles(under folder: URL = TestPaths.corpora) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in walker where url.pathExtension.lowercased() == "ics" {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The path relative to the corpora folder, for messages.
    public static func name(of url: URL) -> String {
        let base = TestPaths.corpora.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count + 1)) : path
    }
}
