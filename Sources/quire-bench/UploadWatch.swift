import Foundation
import QuireCore
import QuireStore
import Synchronization

/// Tells the bench when the server holds a file: checked at each change of the sync worker's
/// state (a round's start and end), as the app hears of its rounds.
///
/// It once polled the store every 5 ms at normal priority: 200 wake-ups a second beside the
/// keys, which only the upload's rows paid for, not the idle rows or the controls.
final class UploadWatch: Sendable {
    let file: AttachedFile
    let store: AppDatabase
    /// How the wait ended (uploaded, or out of time), once it has; and who waits.
    private let state = Mutex<(outcome: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((nil, nil))

    init(file: AttachedFile, store: AppDatabase) {
        self.file = file
        self.store = store
    }

    /// Reads the file's transfer state; the first time it is uploaded, the waiter returns.
    func check() {
        guard (try? store.attachmentTransfers()[file.hash]) == .uploaded else { return }
        finish(uploaded: true)
    }

    /// Returns once `check` has seen the file uploaded; throws after `seconds`.
    func wait(seconds: Double) async throws {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in finish(uploaded: false) }
        let uploaded = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let outcome = state.withLock { current in
                if current.outcome == nil { current.waiter = waiter }
                return current.outcome
            }
            if let outcome { waiter.resume(returning: outcome) }
        }
        guard uploaded else { throw BenchFailure("the upload did not end within \(Int(seconds)) s") }
    }

    private func finish(uploaded: Bool) {
        let waiter = state.withLock { current -> CheckedContinuation<Bool, Never>? in
            guard current.outcome == nil else { return nil }
            current.outcome = uploaded
            defer { current.waiter = nil }
            return current.waiter
        }
        waiter?.resume(returning: uploaded)
    }
}
