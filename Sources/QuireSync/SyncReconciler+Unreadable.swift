import Foundation
import QuireCore
import QuireStore

/// Server versions that arrive sealed and do not open here (SPEC "End-to-end encryption": the
/// item is marked unreadable with the reason while the others sync on).
extension SyncReconciler {
    /// Records the newest server version of an item as one this device could not read. The copy
    /// it holds, if any, stays as it is: its unsent changes go on as before and nothing the
    /// person typed is lost. The version counts in the device's state hash (it is what the
    /// device received), so the hash still equals the server's. Logged once per version: a
    /// resync, or a read after the device's keys changed, that meets the same version again
    /// only notes the keys it was tried with.
    mutating func record(unreadable version: UnreadableVersion, in local: inout LocalItem) {
        if let known = local.unreadable, known.rev == version.rev, known.reason == version.reason {
            local.unreadable?.triedKeys = version.triedKeys
            return
        }
        local.unreadable = version
        summary.unreadable += 1
        log(.unreadable, "cannot read item: \(version.reason)", item: local.id, op: nil)
    }

}
