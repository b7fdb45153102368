import Foundation
import GRDB
import QuireCore

/// `u`: local actions taken back newest first, from the history the store keeps anyway.
///
/// An action is a version this device's person wrote (origin `local` or `resolve`) that is not
/// itself an undo. Its undo is decided by `UndoPlan` from that version, the one before it and
/// the item now, and written as an ordinary local change (an op that syncs) whose version names
/// the action it took back. Because the list of actions is the history, undo survives a
/// restart and covers the CLI's changes as well as the app's.
extension AppDatabase {
    /// Takes back the newest action not yet taken back, in one transaction. Nil when there is
    /// none. An action that can no longer be taken back (its item was deleted on another device,
    /// say) is marked as handled and reported with `.cannot`, so the next call goes on to the
    /// action before it instead of stopping there for good.
    public func undoLastAction() throws(StoreError) -> UndoneAction? {
        try write { db in
            let actionSQL = """
                SELECT seq, itemId FROM itemVersion
                WHERE origin IN ('local', 'resolve') AND undoes IS NULL AND undone = 0
                ORDER BY seq DESC LIMIT 1
                """
            guard let found = try Row.fetchOne(db.cachedStatement(sql: actionSQL)) else { return nil }
            let seq: Int64 = found[0]
            let itemID: String = found[1]
            try db.cachedStatement(sql: "UPDATE itemVersion SET undone = 1 WHERE seq = ?").execute(arguments: [seq])
            guard let action = try Self.version(seq: seq, in: db), let current = try ItemRow.fetch(id: itemID, in: db)
            else { return nil }
            let before = try Self.version(before: seq, of: itemID, in: db)
            let plan = UndoPlan.taking(back: action, before: before, current: current)
            let after: Item
            var met = SavedWrite.Outcome.saved
            switch plan {
            case .revert(let fields):
                // Undo starts from the version the action wrote: what changed since merges in.
                let wrote = fields.keys.map { ($0, action.value(of: $0)) }
                let saved = try recordSave(
                    fields, startedFrom: Dictionary(uniqueKeysWithValues: wrote), current: current, undoing: seq, in: db
                )
                after = saved.item
                met = saved.outcome
            case .undelete:
                after = try recordRestore(current, undoing: seq, in: db)
            case .remove, .deleteAgain:
                after = try recordDelete(current, undoing: seq, in: db)
            case .cannot:
                after = current
            }
            return UndoneAction(itemID: itemID, title: after.title, plan: plan, met: met)
        }
    }

    /// The version recorded at `seq`.
    private static func version(seq: Int64, in db: Database) throws -> Item? {
        let sql = "SELECT \(ItemRow.versionColumns) FROM itemVersion WHERE seq = ?"
        return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [seq]).map { try ItemRow.decode($0) }
    }

    /// The item's version recorded just before `seq`; nil when `seq` created it.
    private static func version(before seq: Int64, of itemID: String, in db: Database) throws -> Item? {
        let sql =
            "SELECT \(ItemRow.versionColumns) FROM itemVersion WHERE itemId = ? AND seq < ? ORDER BY seq DESC LIMIT 1"
        return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [itemID, seq]).map { try ItemRow.decode($0) }
    }
}
