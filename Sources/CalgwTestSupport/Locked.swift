import Foundation

/// A value behind a lock, for closures a run may call from any task: a fault hook counting side
/// effects, a seed closure remembering versions, a request counter.
///
/// ```swift
/// let effects = Locked(0)
/// _ = try await SyncEngine(..., faultHook: { n in effects.value = n }).run()
/// ```
public final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    /// A lock around `value`.
    public init(_ value: Value) { stored = value }

    /// The value now; setting it replaces it.
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, under the lock.
    public func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
