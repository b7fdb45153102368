import Dispatch

/// Runs blocking work on a Dispatch queue and awaits it, so that it never holds one of the
/// cooperative pool's threads.
///
/// The pool has one thread per core. Applying a page is a SQLite transaction that may wait
/// seconds for the write lock of another process (the app, `quire add`); done on the pool it
/// stops every other task meanwhile on a small machine, among them the request for the next
/// page, which is asked for precisely so that it overlaps that transaction.
///
/// A queue of its own, not `DispatchQueue.global()`: the global queue runs no more items at once
/// than there are cores, so work blocked there would wait behind whatever blocks it; a serial
/// queue of one's own is given a thread when it has work.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue(label: "quire.blocking-work").async { continuation.resume(with: Result { try work() }) }
    }
}
