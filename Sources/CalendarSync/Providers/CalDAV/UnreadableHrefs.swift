import Foundation

/// The hrefs a server listed but would not give (404 to a GET, left out of a multiget, listed
/// without data by a calendar-query): Google lists `<id>_R<date>@google.com.ics` for the
/// instances of a split or cancelled series and then has nothing there (vdirsyncer #1208,
/// #1212). They are skipped, not failed on, and told in one note per run.
final class UnreadableHrefs: @unchecked Sendable {
    private let lock = NSLock()
    private var hrefs: Set<String> = []

    /// Notes that `hrefs` were listed and could not be read.
    func add<S: Sequence>(_ hrefs: S) where S.Element == String {
        lock.withLock { self.hrefs.formUnion(hrefs) }
    }

    /// The note on what was skipped since the last call, nil when nothing was.
    func takeNote() -> String? {
        let taken: [String] = lock.withLock {
            defer { hrefs = [] }
            return hrefs.sorted()
        }
        guard !taken.isEmpty else { return nil }
        let names = taken.map { href in
            let last = href.split(separator: "/").last.map(String.init) ?? href
            return last.removingPercentEncoding ?? last
        }
        let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
        let count = names.count == 1 ? "1 item" : "\(names.count) items"
        return "\(count) the server lists could not be read (404 or no data: Google lists the instances of "
            + "split or cancelled series so), skipped: \(shown)"
    }
}
