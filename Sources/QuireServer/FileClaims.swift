import Foundation

/// The SQL both stores run for files' claims (schema 8), in the dialect they share.
///
/// A device that commits a file names the items that refer to it (`FileManifest.items`); the
/// server keeps each as a claim (account, file address, item id, when last claimed). The server
/// cannot read an encrypted item, so claims are all it knows of who uses a file. A file is
/// purged when it has claims, every claiming item is gone from the server (its tombstone
/// purged, so no device pulls it again) and its last claim is older than the retention: an
/// item whose create the device has not pushed yet is absent too, but its claim is young. A
/// file committed without claims (an older device, or one committed before schema 8) is
/// `pinned`: its references are unknown, so it is never purged.
enum FileClaimSQL {
    /// The claims table; SQLite adds `WITHOUT ROWID`.
    static func claimsTable(suffix: String = "") -> String {
        """
        CREATE TABLE IF NOT EXISTS file_claims (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            file TEXT NOT NULL,
            item TEXT NOT NULL,
            claimed_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, file, item))\(suffix)
        """
    }

    /// The files no item can reference any more, as (user_id, file) rows.
    static func purgeable(before seconds: Int64) -> String {
        """
        SELECT c.user_id, c.file FROM file_claims c
        JOIN files f ON f.user_id = c.user_id AND f.hash = c.file AND f.pinned = 0
        WHERE NOT EXISTS (
            SELECT 1 FROM file_claims live JOIN items i ON i.user_id = live.user_id AND i.id = live.item
            WHERE live.user_id = c.user_id AND live.file = c.file)
        GROUP BY c.user_id, c.file
        HAVING MAX(c.claimed_at) < \(seconds)
        """
    }

    /// A purge of files, in one transaction: the first statement counts the files that go,
    /// the rest remove their chunk lists, manifests and claims. Their chunks then go with the
    /// chunk purge (chunks no committed file lists, stored before the same cutoff).
    static func purgeSteps(before seconds: Int64) -> (count: String, removals: [String]) {
        let doomed = purgeable(before: seconds)
        return (
            "SELECT COUNT(*) FROM (\(doomed)) doomed",
            [
                "DELETE FROM file_chunks WHERE (user_id, file) IN (\(doomed))",
                "DELETE FROM files WHERE (user_id, hash) IN (\(doomed))",
                """
                DELETE FROM file_claims WHERE NOT EXISTS (
                    SELECT 1 FROM files f WHERE f.user_id = file_claims.user_id AND f.hash = file_claims.file)
                """,
            ]
        )
    }

    /// Run when the epoch is renewed (a restore from a backup): every claim counts as made now.
    /// The restored claims lack those made after the backup, which devices make again once they
    /// see the new epoch; until then no file may go for want of them.
    static func renewClaims(now seconds: Int64) -> String {
        "UPDATE file_claims SET claimed_at = \(seconds) WHERE claimed_at < \(seconds)"
    }
}
