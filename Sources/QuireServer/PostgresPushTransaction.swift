import Foundation
import PostgresNIO
import QuireProtocol

/// PostgreSQL's side of a push, on one connection inside the store's transaction. The user's
/// row is locked (`FOR UPDATE`) before anything else is read, so writers of one user queue up.
struct PostgresPushTransaction: PushTransaction {
    let store: PostgresStore
    let connection: PostgresConnection
    let user: UserID
    let logger: Logger

    func read(_ request: PushRead) async throws -> PushReads {
        let head = try await store.head(user: user, lock: true, on: connection)
        var recorded: [String: OpRecord] = [:]
        let recordRows = try await connection.query(
            "SELECT op, result FROM op_results WHERE user_id = \(user.rawValue) AND op = ANY(\(request.opIDs))",
            logger: logger)
        for try await (op, text) in recordRows.decode((String, String).self) {
            recorded[op] = try OpRecord(op: op, storedText: text)
        }
        var items: [String: StoredItem] = [:]
        let itemRows = try await connection.query(
            "SELECT id, doc, seq, deleted_at FROM items WHERE user_id = \(user.rawValue) AND id = ANY(\(request.itemIDs))",
            logger: logger)
        for try await (id, doc, seq, deletedAt) in itemRows.decode((String, String, Int64, Int64).self) {
            items[id] = try StoredItem(doc: doc, seq: seq, deletedAt: deletedAt)
        }
        return PushReads(head: head, recorded: recorded, items: items)
    }

    func write(_ writes: PushWrites) async throws {
        if !writes.items.isEmpty {
            let ids = writes.items.map(\.item.id)
            let revs = writes.items.map { Int64($0.item.rev) }
            let seqs = writes.items.map(\.seq)
            let deleted = writes.items.map(\.item.deleted)
            let deletedAts = writes.items.map(\.deletedAt)
            let docs = writes.items.map(\.doc)
            try await connection.query(
                """
                INSERT INTO items (user_id, id, rev, seq, deleted, deleted_at, doc, device)
                SELECT \(user.rawValue), *, \(writes.device) FROM UNNEST(\(ids)::text[], \(revs)::bigint[], \(seqs)::bigint[],
                    \(deleted)::boolean[], \(deletedAts)::bigint[], \(docs)::text[])
                ON CONFLICT (user_id, id) DO UPDATE SET rev = excluded.rev, seq = excluded.seq,
                    deleted = excluded.deleted, deleted_at = excluded.deleted_at, doc = excluded.doc,
                    device = excluded.device
                """, logger: logger)
        }
        if !writes.records.isEmpty {
            let ops = writes.records.map(\.op)
            let results = writes.records.map(\.storedText)
            try await connection.query(
                """
                INSERT INTO op_results (user_id, op, result, created_at)
                SELECT \(user.rawValue), op, result, \(writes.recordedAt) FROM UNNEST(\(ops)::text[], \(results)::text[]) AS t(op, result)
                """, logger: logger)
        }
        guard let head = writes.head else { return }
        try await connection.query(
            """
            UPDATE users SET seq = \(head.seq), state_hash = \(head.stateHash),
                stored_bytes = \(head.storedBytes) WHERE id = \(user.rawValue)
            """,
            logger: logger)
        if !writes.items.isEmpty {
            // Delivered to every listening server process when the transaction commits.
            let payload = "\(user.rawValue):\(head.seq)"
            try await connection.query("SELECT pg_notify(\(PostgresStore.feedChannel), \(payload))", logger: logger)
        }
    }
}
