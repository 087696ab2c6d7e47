import Foundation

extension Array where Element: Sendable {
    /// `transform` of each element, in order: computed on every core when there are at least
    /// `minimum` elements (a first sync parses and reads thousands at once, a listing stats as
    /// many files), else on the calling thread, where starting others costs more than it saves;
    /// on the calling thread too on a machine of one core.
    /// - Parameter eachAlone: each element is a part of its own, for work whose cost varies
    ///   from one element to the next (a file of one event beside one of a long series); by
    ///   default the elements are cut into runs of neighbours: four per core, and more for
    ///   many elements, none longer than ``longestRun``, so that the cores end together
    ///   (100,000 `stat`s in eight runs left one core alone for the last run's 15 ms).
    package func mappedOnEveryCore<T>(
        minimum: Int = 64, eachAlone: Bool = false, _ transform: @Sendable (Element) -> T
    ) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard count >= minimum, cores > 1 else { return map(transform) }
        let parts =
            eachAlone ? count : Swift.min(count, Swift.max(cores * 4, (count + Self.longestRun - 1) / Self.longestRun))
        let size = (count + parts - 1) / Swift.max(parts, 1)
        let count = count
        return mapped(
            parts: parts,
            positions: { part in
                stride(from: Swift.min(part * size, count), to: Swift.min((part + 1) * size, count), by: 1)
            }, transform: transform)
    }

    /// The most neighbours one part of ``mappedOnEveryCore(minimum:eachAlone:_:)`` takes: a part
    /// is taken whole by whichever thread is free, for a few hundred nanoseconds.
    package static var longestRun: Int { 1_024 }

    /// `transform` of each element, in order, in `lanes` parts run at once (as many together
    /// as the system runs), the elements dealt to them in turn: part k takes k, k + lanes,
    /// k + 2·lanes, …. For work that waits in the kernel as much as it computes (files being
    /// created), where more parts than cores keep the cores busy.
    package func mappedConcurrently<T>(lanes: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        let lanes = Swift.max(1, Swift.min(lanes, count))
        let count = count
        return mapped(
            parts: lanes, positions: { lane in stride(from: lane, to: count, by: lanes) }, transform: transform)
    }

    /// The one loop both share: each of `parts` run at once (`DispatchQueue.concurrentPerform`)
    /// fills the results at the positions `positions` gives it.
    private func mapped<T>(
        parts: Int, positions: @Sendable (Int) -> StrideTo<Int>, transform: @Sendable (Element) -> T
    ) -> [T] {
        guard !isEmpty else { return [] }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for i in positions(part) { (base + i).initialize(to: transform(self[i])) }
            }
            initialized = count
        }
    }
}
