extension SyncReport {
    /// How a pull from a read-only remote (a subscription) will end a conflict under
    /// `strategy`: `kept-as-copy` (the local edit kept as a conflict copy, the remote version
    /// taken), except under `remote-wins` and `ask`, which keep their names.
    static func readOnlyResolution(_ strategy: ConflictStrategy) -> ConflictOutcome {
        strategy == .remoteWins || strategy == .ask ? ConflictOutcome(strategy) : .keptAsCopy
    }

    /// Names the conflicts a preview lists under `strategy` as a pull from a read-only remote
    /// will resolve them (see `readOnlyResolution(_:)`), so `status` says what will happen.
    mutating func nameReadOnlyResolutions(_ strategy: ConflictStrategy) {
        let name = Self.readOnlyResolution(strategy)
        for i in conflicts.indices where conflicts[i].resolution == ConflictOutcome(strategy) {
            conflicts[i].resolution = name
        }
        guard var items else { return }
        for i in items.indices where items[i].strategy == ConflictOutcome(strategy) { items[i].strategy = name }
        self.items = items
    }
}
