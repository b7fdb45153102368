import Foundation
import GRDB
import QuireProtocol

/// SQLite's side of a push, inside the store's write block (SQLite's one writer is the lock).
struct SQLitePushTransaction: PushTransaction {
    let db: Database
    let user: UserID

    func read(_ request: PushRead) throws -> PushReads {
        let head = try SQLiteStore.head(db, user: user)
        var recorded: [String: OpRecord] = [:]
        let findRecord = try db.cachedStatement(sql: "SELECT result FROM op_results WHERE user_id = ? AND op = ?")
        for op in request.opIDs {
            if let text = try String.fetchOne(findRecord, arguments: [user.rawValue, op]) {
                recorded[op] = try OpRecord(op: op, storedText: text)
            }
        }
        var items: [String: StoredItem] = [:]
        let findItem = try db.cachedStatement(
            sql: "SELECT doc, seq, deleted_at FROM items WHERE user_id = ? AND id = ?")
        for id in request.itemIDs {
            if let row = try Row.fetchOne(findItem, arguments: [user.rawValue, id]) {
                items[id] = try StoredItem(doc: row[0], seq: row[1], deletedAt: row[2])
            }
        }
        return PushReads(head: head, recorded: recorded, items: items)
    }

    func write(_ writes: PushWrites) throws {
        let writeItem = try db.cachedStatement(
            sql: """
                INSERT INTO items (user_id, id, rev, seq, deleted, deleted_at, doc, device)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, id) DO UPDATE SET rev = excluded.rev, seq = excluded.seq,
                    deleted = excluded.deleted, deleted_at = excluded.deleted_at, doc = excluded.doc,
                    device = excluded.device
                """)
        for stored in writes.items {
            try writeItem.execute(arguments: [
                user.rawValue, stored.item.id, stored.item.rev, stored.seq, stored.item.deleted,
                stored.deletedAt, stored.doc, writes.device,
            ])
        }
        let writeRecord = try db.cachedStatement(
            sql: "INSERT INTO op_results (user_id, op, result, created_at) VALUES (?, ?, ?, ?)")
        for record in writes.records {
            try writeRecord.execute(arguments: [user.rawValue, record.op, record.storedText, writes.recordedAt])
        }
        if let head = writes.head {
            try db.execute(
                sql: "UPDATE users SET seq = ?, state_hash = ?, stored_bytes = ? WHERE id = ?",
                arguments: [head.seq, head.stateHash, head.storedBytes, user.rawValue])
        }
    }
}
