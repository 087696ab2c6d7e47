import Foundation
import ICalendar

extension EventFiles {
    /// What a search by UID found among the files that are not named after it.
    struct UIDSearch {
        /// The files holding the UID, read.
        var found: [EventFile] = []
        /// The first file that names the UID but does not parse.
        var unreadable: EventEditError?
        /// How many files were read.
        var read = 0
    }

    /// Finds `uid` among the vdir's files other than `preferred`, as ``find(uid:)`` does
    /// without an index, reading only the files the index of UIDs (``cache``) does not know
    /// to hold other UIDs: those new or changed since they were last read (by their stamps,
    /// as `list`'s index tells them), those that did not parse (read every time, to be
    /// reported), and those it knows hold `uid`. Each file read has its UIDs recorded.
    /// - Returns: nil when the folder cannot be listed (the search without the index then
    ///   says why).
    func searchIndexed(uid: String, preferred: String, cache: ListingCache) throws -> UIDSearch? {
        let (listing, read) = ListedFiles.vdir(directory.url.standardizedFileURL.path, cache: cache.of(.uids))
        guard read, let index = listing.index else { return nil }
        var search = UIDSearch()
        let uidBytes = Array(uid.utf8)
        for i in 0..<listing.count {
            if index.withFactsIfPassable(of: i, { UIDFacts.contains($0, uid: uidBytes) }) == false {
                continue
            }
            search.read += 1
            let name = listing.name(of: i)
            guard let (data, signature) = try directory.read(name) else { continue }
            let calendar: Component?
            do {
                calendar = try ICalendarParser().parse(data).calendar
            } catch let error as ICalendarSyntaxError {
                if !index.isFresh(i) { index.record(i, spans: nil) }
                if search.unreadable == nil, data.range(of: Data(uid.utf8)) != nil {
                    search.unreadable = .unreadable(
                        uid: uid, file: directory.path(name), line: error.line, reason: error.reason)
                }
                continue
            } catch {
                calendar = nil
            }
            let uids = calendar?.components.compactMap { $0["UID"]?.text } ?? []
            if !index.isFresh(i) { index.record(i, spans: [], facts: UIDFacts.encode(uids)) }
            if let calendar, name != preferred, uids.contains(uid) {
                search.found.append(EventFile(name: name, signature: signature, data: data, calendar: calendar))
            }
        }
        index.save()
        return search
    }
}
