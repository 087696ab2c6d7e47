import Foundation

extension Executor {
    /// A copy of the server's version written to the vdir that asked answers again where the
    /// meeting only had its series cut short (``SeriesCutShort``), with those answers kept.
    struct KeptAnswers {
        /// The vdir's version, as just written.
        var local: SideItem
        /// The server's version it copies.
        var remote: SideItem
        /// The same with the answers given back.
        var data: Data
    }

    /// Notes a server's version written to the vdir that asked answers again for a series only
    /// cut short, compared with the version both sides last agreed on (the journal's base,
    /// read only for such a version).
    func noteAnswersAskedAgain(_ written: SideItem, copying source: SideItem) {
        guard let after = source.data, SeriesCutShort.mayAskAgain(after),
            let before = try? journal.base(for: source.key),
            let kept = SeriesCutShort.answersKept(before: before, after: after)
        else { return }
        keptAnswers.append(KeptAnswers(local: written, remote: source, data: kept))
    }

    /// Writes each noted version back with the answers kept, to the vdir and to the server, as
    /// a copy (the server sends nobody anything: the organizer's copy holds these answers
    /// already). A write that fails is left to the next run, which finds the vdir's version the
    /// newer and sends it as any other.
    func keepAnswersOfSeriesCutShort() async throws {
        guard !keptAnswers.isEmpty else { return }
        try await settle()
        let pending = keptAnswers
        keptAnswers = []
        for kept in pending {
            let hash = ContentHash.of(kept.data)
            do {
                try await writeBoth(
                    kept.data, local: { try await self.update(kept.local, with: kept.data, hash: hash, on: .local) },
                    remote: {
                        try await self.update(kept.remote, with: kept.data, hash: hash, on: .remote, copying: $0)
                    })
            } catch let error as RunInterrupted {
                throw error
            } catch {
                report.notes.append(
                    "\(kept.local.key): the answers the organizer's shortened series asked again are kept in the vdir only: \(Self.describe(error))"
                )
                continue
            }
            report.updated.remote += 1
            report.notes.append(
                "\(kept.local.key): the organizer only cut the series short; the answers given to it are kept")
        }
    }
}
