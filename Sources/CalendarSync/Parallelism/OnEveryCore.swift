import Foundation

extension Array where Element: Sendable {
    /// `transform` of each element, in order: computed on every core when there are at least
    /// `minimum` elements (a first sync parses and reads thousands at once), else on the
    /// calling thread, where starting others costs more than it saves.
    func mappedOnEveryCore<T>(minimum: Int = 64, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count >= minimum else { return map(transform) }
        let chunks = ProcessInfo.processInfo.activeProcessorCount * 4
        let size = (count + chunks - 1) / chunks
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for i in Swift.min(chunk * size, count)..<Swift.min((chunk + 1) * size, count) {
                    (base + i).initialize(to: transform(self[i]))
                }
            }
            initialized = count
        }
    }
}
