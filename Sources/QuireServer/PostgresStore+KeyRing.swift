import PostgresNIO

extension PostgresStore {
    func keyRing(user: UserID) async throws -> StoredKeyRing? {
        let rows = try await client.query(
            "SELECT keyring_version, keyring FROM users WHERE id = \(user.rawValue)", logger: logger)
        for try await (version, json) in rows.decode((Int64, String?).self) {
            return json.map { StoredKeyRing(version: Int(version), json: $0) }
        }
        return nil
    }

    func storeKeyRing(user: UserID, ring: KeyRingWrite, expected: Int) async throws -> Int {
        try await transaction { connection in
            let rows = try await connection.query(
                "SELECT keyring_version FROM users WHERE id = \(user.rawValue) FOR UPDATE", logger: self.logger)
            var current: Int?
            for try await version in rows.decode(Int64.self) { current = Int(version) }
            guard let current else { throw ResyncRequired(reason: "the user no longer exists") }
            guard current == expected else { throw KeyRingVersionConflict(current: current) }
            let (next, key) = (Int64(current + 1), Int64(ring.currentKey))
            try await connection.query(
                "UPDATE users SET keyring = \(ring.json), keyring_version = \(next), keyring_key = \(key) WHERE id = \(user.rawValue)",
                logger: self.logger)
            if current == 0 { try await self.sealPast(user: user, on: connection) }
            return current + 1
        }
    }

    /// `KeyRingSealing`'s work in this store, and the user's stored bytes counted again.
    private func sealPast(user: UserID, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            "SELECT id, doc FROM items WHERE user_id = \(user.rawValue) AND deleted", logger: logger)
        var tombstones: [(String, String)] = []
        for try await (id, doc) in rows.decode((String, String).self) { tombstones.append((id, doc)) }
        for (id, doc) in tombstones {
            let blank = try KeyRingSealing.contentless(doc)
            try await connection.query(
                "UPDATE items SET doc = \(blank) WHERE user_id = \(user.rawValue) AND id = \(id)", logger: logger)
        }
        try await connection.query("DELETE FROM op_results WHERE user_id = \(user.rawValue)", logger: logger)
        for table in KeyRingSealing.fileTables {
            try await connection.query(
                PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE user_id = \(user.rawValue)"), logger: logger)
        }
        try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "UPDATE users SET stored_bytes = \(StoredBytesSQL.counted(length: PostgresStore.byteLength)) WHERE id = \(user.rawValue)"
            ), logger: logger)
    }
}
