import Dispatch

/// Runs blocking work on a Dispatch queue and awaits it, so that it never holds one of the
/// cooperative pool's threads.
///
/// The pool has one thread per core. Applying a page is a SQLite transaction that may wait
/// seconds for the write lock of another process (the app, `quire add`); done on the pool it
/// stops every other task meanwhile on a small machine, among them the request for the next
/// page, which is asked for precisely so that it overlaps that transaction.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
