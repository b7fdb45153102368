import Foundation
import GRDB
import QuireCore

// MARK: - Writes that start from a version

/// Every write that starts from a version it saw goes through here (SPEC: "Every write merges
/// with what changed since it began"): the app's editor and `E`, `quire edit` in an editor, a
/// version restored from history, undo. Blind writes (`quire edit --title`, `x`, `p`) that read
/// nothing first go through `update`, as before.
extension AppDatabase {
    /// Writes `after`, made from `before`, merged with whatever changed since (`WriteMerge`).
    ///
    /// - Parameters:
    ///   - before: the values the writer started from, for every field it may set.
    ///   - after: the values it sets.
    @discardableResult
    public func save(_ id: String, from before: [Field: FieldValue], to after: [Field: FieldValue])
        throws(StoreError) -> SavedWrite
    {
        try write { db in
            // A deleted item is not refused: deleted while the writer had it open, it meets
            // the edit as an edit against a delete (kept, for review).
            guard let current = try ItemRow.fetch(id: id, in: db) else { throw StoreError.notFound(id: id) }
            return try recordSave(after, startedFrom: before, current: current, in: db)
        }
    }

    /// `save` inside a write transaction; `undoing` is the history entry an undo takes back.
    func recordSave(
        _ after: [Field: FieldValue], startedFrom before: [Field: FieldValue], current: Item, undoing: Int64? = nil,
        in db: Database
    ) throws -> SavedWrite {
        let now = self.now()
        switch try WriteMerge.settle(after, startedFrom: before, current: current, now: now) {
        case .write(let values):
            let item = try recordUpdate(current, fields: values, origin: .local, undoing: undoing, in: db)
            return SavedWrite(item: item, outcome: item == current ? .unchanged : .saved)
        case .merged(let values):
            let item = try recordUpdate(current, fields: values, origin: .local, undoing: undoing, in: db)
            return SavedWrite(item: item, outcome: item == current ? .unchanged : .merged)
        case .conflict(let merge):
            try keepForReview(merge, current: current, at: now, in: db)
            // Both sides in the row, as an ordinary change: whatever happens to the record (a
            // sync replaces it, the person edits the item), nothing typed lives only there. An
            // item deleted meanwhile comes back with the edit; accepting the delete is a choice.
            let live = current.deleted ? try recordRestore(current, undoing: nil, in: db) : current
            let both = merge.resolved(.both).changes(since: live).mapValues(\.to)
            var item = try recordUpdate(live, fields: both, origin: .local, undoing: undoing, in: db)
            if item.syncState != .needsReview {
                item.syncState = .needsReview
                try db.cachedStatement(sql: "UPDATE item SET syncState = ? WHERE id = ?")
                    .execute(arguments: [SyncState.needsReview.rawValue, item.id])
            }
            return SavedWrite(item: item, outcome: .needsReview)
        }
    }

    /// Records the save that met another change as needing review. An item in review already
    /// keeps its record: the row holds what this save brought, merged or side by side.
    private func keepForReview(_ merge: ItemMerge, current: Item, at now: Date, in db: Database) throws {
        let inReview =
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM conflict WHERE itemId = ?)"),
                arguments: [current.id]) ?? false
        guard !inReview else { return }
        try ConflictRow.save(
            ConflictRecord(
                itemID: current.id, base: merge.base, local: merge.local, remote: current, fields: merge.conflicts,
                detectedAt: now, origin: .edit),
            in: db)
        let fields = merge.conflicts.map(\.rawValue).joined(separator: ", ")
        try SyncEventRow.append(
            [
                SyncEvent(
                    at: now, kind: .conflict,
                    message: "needs review: \(fields) changed here while it was being edited; both kept",
                    itemID: current.id)
            ], keeping: SyncEvent.logLimit, in: db)
    }
}
