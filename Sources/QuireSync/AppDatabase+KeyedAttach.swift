import Foundation
import QuireCore
import QuireStore

/// Attaching as `quire attach` and the app's attach prompt both do: one call, so a file attached
/// in either is keyed and queued the same way, at once.
extension AppDatabase {
    /// Attaches the files at `paths` to the item with full id `id`, each given its key now when
    /// this device holds the account's keys (`settings`); a plain account's files, or a locked
    /// device's, go as they are and are keyed when they sync. The keys are read before anything
    /// is copied: keys that cannot be read change nothing.
    @discardableResult
    public func attachFiles(at paths: [String], to id: String, settings: SyncSettings?) throws
        -> (item: Item, files: [AttachedFile])
    {
        let keys = try settings?.dataKeys()
        return try attachFiles(at: paths, to: id) { added, known in
            guard let keys else { return added }
            return AttachmentKeys.keyed(added, keys: keys, known: try known())
        }
    }
}
