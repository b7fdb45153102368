/// The version of the server's database schema, kept as `schema` in the `meta` table.
///
/// A binary migrates an older database forward when it opens it; it refuses a newer one,
/// because it would not know the columns or rules a later version added and could silently
/// undo them.
public enum SchemaVersion {
    /// The schema this binary writes; raise it with every migration added to a store.
    /// 2: every item version carries its `ServerVersion`; renewing the epoch records the
    /// lineage of the database's earlier lives. 3: tokens carry the name of their device.
    /// 4: each user's row counts the bytes their rows take (the storage quota). 5: attachment
    /// chunks and file manifests. 6: each user's row keeps the account's key ring and its
    /// version (end-to-end encryption). 7: beside the version, the data key the ring names
    /// current. 8: the items that claim each file, and files committed without claims pinned
    /// (attachments purged once no item can reference them).
    public static let current = 8

    /// The server's own version, named in messages about the schema.
    public static let serverVersion = "0.1.0"

    /// Throws when the database was written by a newer server; `found` is nil for a database
    /// without tables yet.
    static func check(found: Int?, database: String) throws {
        guard let found, found > current else { return }
        throw ConfigurationError(
            "the database \(database) has schema version \(found), newer than this quire-server \(serverVersion) knows (\(current)): "
                + "run the quire-server that wrote it, or restore a backup taken before the upgrade")
    }
}

/// What `quire-server migrate` did.
public struct MigrationReport: Sendable, Equatable, CustomStringConvertible {
    /// The schema version before; nil for a database without tables.
    public let before: Int?
    public let after: Int

    public var description: String {
        switch before {
        case nil: "created the tables at schema version \(after)"
        case after: "already at schema version \(after); nothing to do"
        case let before?: "migrated from schema version \(before) to \(after)"
        }
    }
}
