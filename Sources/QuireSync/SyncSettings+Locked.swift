import QuireStore

extension SyncSettings {
    /// Whether this device is locked out of an encrypted account: the server refused it for
    /// want of the account's keys (`position.lockedAt`, kept until a round goes through) and it
    /// holds no keys it can read now (the same keys the engine seals with).
    ///
    /// The one answer to "must `U` open the unlock prompt": it comes from the device's own
    /// state, not from the last round's outcome, so a locked device that is offline or just
    /// opened is still locked, and one unlocked a moment ago is not, before any round runs.
    public func isLocked(_ position: SyncMeta) -> Bool {
        position.lockedAt != nil && (try? dataKeys()) == nil
    }
}
