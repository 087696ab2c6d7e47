import Foundation

extension ListingIndex {
    /// A new index file written while its files are read: the header (its numbers left for
    /// last), the folders, then each listed file's entry in listing order, a recorded one as it
    /// is recorded and, before it, the fresh stored entries of the files passed over. A first
    /// listing of 1,000,000 files held every entry it recorded until it saved the index (about
    /// 120 MB with their places); it holds a buffer of the file now.
    ///
    /// The file is a temporary one beside the index, renamed over it by ``ListingIndex/save()``
    /// once whole (its checksum taken as its bytes go out), and removed when the listing ends
    /// otherwise: the index is replaced whole or not at all, as before.
    struct EntryStream {
        /// The file being written; nil when it could not be made (nothing is saved then).
        var out: IndexFileWriter?
        /// The temporary file's path.
        var path: String
        /// How long the header is: the folders and entries follow it.
        var headerLength: Int
        /// The listed file whose entry comes next.
        var next = 0
        /// How many entries were written.
        var count = 0
        /// A file recorded out of listing order, or twice: the index is then not saved.
        var broken = false

        /// A stream that writes nothing: its file could not be made.
        static let unmade = EntryStream(out: nil, path: "", headerLength: 0, broken: true)
    }

    /// Writes `entry` as the file at `index`'s, after the fresh stored entries of the files
    /// before it; opens the new file first for the first file recorded.
    func streamEntry(_ entry: [UInt8], of index: Int) {
        if stream == nil { stream = openStream() }
        guard var s = stream, !s.broken else { return }
        stream = nil  // written in place, not copied
        if index < s.next {
            s.broken = true
        } else {
            copyStored(upTo: index, into: &s)
            s.out!.add(entry)
            s.count += 1
            s.next = index + 1
        }
        stream = s
    }

    /// A new temporary file holding the header (with no numbers yet) and the folders; a broken
    /// stream when it cannot be made (nothing is saved then, as when a write fails).
    private func openStream() -> EntryStream {
        guard let path = temporaryFile(), var out = IndexFileWriter(path: path) else { return .unmade }
        let head = header(count: 0, length: 0, checksum: 0)
        out.add(head)
        out.beginChecksum()
        out.add(folderBytes())
        return EntryStream(out: out, path: path, headerLength: head.count)
    }

    /// Writes the fresh stored entries of the listed files from `s.next` up to `end`: entries
    /// that follow one another in the stored index (nearly all of them, files being listed in
    /// the order they were stored) go out as one run of bytes.
    private func copyStored(upTo end: Int, into s: inout EntryStream) {
        let stored = buffer.raw
        var run = 0..<0
        for i in s.next..<end where fresh[i] >= 0 {
            guard let e = Self.entry(at: fresh[i], in: stored) else { continue }
            if run.upperBound != fresh[i] {
                if !run.isEmpty { s.out!.add(UnsafeRawBufferPointer(rebasing: stored[run])) }
                run = fresh[i]..<fresh[i]
            }
            run = run.lowerBound..<e.end
            s.count += 1
        }
        if !run.isEmpty { s.out!.add(UnsafeRawBufferPointer(rebasing: stored[run])) }
        s.next = max(s.next, end)
    }

    /// Ends the new index: the stored entries of the files after the last recorded, then the
    /// header with its numbers and checksum; renamed over the index file when whole.
    func finishStream() {
        guard var s = stream, let file else { return }
        stream = nil
        guard !s.broken, s.out != nil else { return s.out?.abandon() ?? () }
        copyStored(upTo: listing.count, into: &s)
        var out = s.out!
        let (length, count) = (out.written - s.headerLength, s.count)
        var written: [UInt8] = []
        let whole = out.finish {
            written = header(count: count, length: length, checksum: $0)
            return written
        }
        guard whole else { return }
        if rename(s.path, file.path) == 0 { identity = written } else { unlink(s.path) }
    }

    /// Removes a new index not finished, if any, and drops the entries held back.
    func discardStream() {
        stream?.out?.abandon()
        stream = nil
        deferred = []
        deferredGain = 0
    }
}
