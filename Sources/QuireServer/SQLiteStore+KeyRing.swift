import GRDB

extension SQLiteStore {
    func keyRing(user: UserID) async throws -> StoredKeyRing? {
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT keyring_version, keyring FROM users WHERE id = ?", arguments: [user.rawValue]),
                let json: String = row[1]
            else { return nil }
            return StoredKeyRing(version: row[0], json: json)
        }
    }

    func storeKeyRing(user: UserID, ring: KeyRingWrite, expected: Int) async throws -> Int {
        let version = try await pool.write { db in
            guard
                let current = try Int.fetchOne(
                    db, sql: "SELECT keyring_version FROM users WHERE id = ?", arguments: [user.rawValue])
            else { throw ResyncRequired(reason: "the user no longer exists") }
            guard current == expected else { throw KeyRingVersionConflict(current: current) }
            try db.execute(
                sql: "UPDATE users SET keyring = ?, keyring_version = ?, keyring_key = ? WHERE id = ?",
                arguments: [ring.json, current + 1, Int64(ring.currentKey), user.rawValue])
            if current == 0 { try Self.sealPast(db, user: user) }
            return current + 1
        }
        if version == 1 { await forgetOldVersions() }
        return version
    }

    /// `KeyRingSealing`'s work in this store, and the user's stored bytes counted again.
    private static func sealPast(_ db: Database, user: UserID) throws {
        let tombstones = try Row.fetchAll(
            db, sql: "SELECT id, doc FROM items WHERE user_id = ? AND deleted = 1", arguments: [user.rawValue])
        for row in tombstones {
            try db.execute(
                sql: "UPDATE items SET doc = ? WHERE user_id = ? AND id = ?",
                arguments: [try KeyRingSealing.contentless(row[1]), user.rawValue, row[0] as String])
        }
        try db.execute(sql: "DELETE FROM op_results WHERE user_id = ?", arguments: [user.rawValue])
        for table in KeyRingSealing.fileTables {
            try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [user.rawValue])
        }
        try db.execute(
            sql: "UPDATE users SET stored_bytes = \(StoredBytesSQL.counted(length: byteLength)) WHERE id = ?",
            arguments: [user.rawValue])
    }
}
