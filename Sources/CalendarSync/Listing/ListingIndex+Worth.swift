import Foundation

extension ListingIndex {
    /// How many recorded entries are held back at most: past it the new index is written
    /// whatever they are worth, so that a listing of any size holds a bounded number.
    static let deferredLimit = 4_096

    /// Whether writing the index again is worth what it costs.
    ///
    /// Writing copies every entry (14 MB at 100,000 files), where a changed file the index is
    /// not told of costs each later run one read of that file. So the index is written when it
    /// is new or was started again; when files were added, removed or listed in another order
    /// (the next run would look each up by key); when a folder's names were read and may be
    /// vouched for (the next run would read them again); and otherwise only once the files read
    /// that the next run would be spared reading reach a thousandth of the index. A file that
    /// changed within the racy margin, or a folder's names read within it, spares the next run
    /// nothing: it reads them again anyway. So an edit right after another edit, which finds
    /// only its own file changed and its folder changed by that edit, writes nothing.
    var worthWriting: Bool {
        if !hadIndex || !storedInOrder { return true }
        if listing.scanned.contains(where: { !$0.fromIndex && !$0.isRacy }) { return true }
        return deferredGain >= max(1, storedCount / 1_024)
    }

    /// Writes the entries held back, in listing order, opening the new index.
    func streamDeferred() {
        let held = deferred
        deferred = []
        for (index, entry) in held { streamEntry(entry, of: index) }
    }
}
