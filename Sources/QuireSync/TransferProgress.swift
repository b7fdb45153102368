import Synchronization

/// Tells listeners that an attached file moved on this device where the database does not
/// see it: a download writes its partial file, and only its end is a commit. The app's item
/// view reads its files' states again on each, instead of polling while one waits.
///
/// Thread-safe: `moved` is called by the sync engine on its own tasks, listeners run there.
public final class TransferProgress: Sendable {
    private let listeners = Mutex<[@Sendable (_ hash: String) -> Void]>([])

    public init() {}

    /// Calls `listener` with the file's content hash after each chunk written and at the end.
    public func listen(_ listener: @escaping @Sendable (_ hash: String) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    func moved(_ hash: String) {
        for listener in listeners.withLock({ $0 }) { listener(hash) }
    }
}
