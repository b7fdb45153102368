import Foundation
import Logging
import QuireCore
import QuireProtocol
import ServiceLifecycle

/// The server's one gateway to its database; SQLite and PostgreSQL implement it alike.
///
/// Every method is one transaction. Writes of one user are serialized (SQLite has one writer;
/// PostgreSQL locks the user's row first), so per-user sequence order is commit order and a
/// cursor never skips a change that commits late. The store keeps no state of its own between
/// calls: several server processes may share one PostgreSQL database.
protocol SyncStore: Sendable {
    /// Background work the store needs while the server runs (PostgreSQL's connection pool).
    var services: [any Service] { get }

    /// Creates the tables when missing and the epoch when the database is new.
    func prepare() async throws
    /// The schema version the database holds, nil before it has tables (`SchemaVersion`).
    func schemaVersion() async throws -> Int?
    /// Answers only when the database is reachable.
    func ping() async throws
    /// The database's epoch (16 hex digits).
    func epoch() async throws -> String
    /// Replaces the epoch with a new random one, so every device resyncs; run after restoring
    /// the database from a backup. Records for every user how far the old epoch's feed reached
    /// in this database (its lineage), so devices can tell which of their versions it still holds.
    /// Every file claim counts as made `now` (`FileClaimSQL.renewClaims`).
    func renewEpoch(now: Date) async throws -> String

    // MARK: Users and tokens

    /// Creates a user with a first token; fails with `StoreError.userExists`.
    func addUser(name: String, tokenHash: String, now: Date) async throws
    /// Adds a token (named for its device, or not) to an existing user; fails with
    /// `StoreError.userNotFound` or `.tokenNameTaken`.
    func addToken(userName: String, tokenHash: String, name: String?, now: Date) async throws
    /// Every user, by name.
    func users() async throws -> [UserSummary]
    /// A user's tokens, oldest first; fails with `StoreError.userNotFound`.
    func tokens(userName: String) async throws -> [TokenSummary]
    /// Removes the tokens of a user `selector` picks and answers how many; fails with
    /// `StoreError.userNotFound`, `.noSuchToken` or `.ambiguousToken`.
    func revokeTokens(userName: String, matching selector: TokenSelector) async throws -> Int
    /// Removes a user with every item, record and token of theirs; answers what they had.
    /// Fails with `StoreError.userNotFound`.
    func removeUser(name: String) async throws -> UserSummary
    /// The user a token hash belongs to, with the stored hash for a constant-time check.
    func tokenOwner(tokenHash: String) async throws -> TokenOwner?

    // MARK: Sync

    /// Applies a batch in one transaction, as `PushDriver` orders it: checks `cursor` against
    /// the feed (throwing `ResyncRequired` and writing nothing when it cannot continue), then
    /// plans with `planner` and writes the plan.
    /// `device` is stored as the writer of every version the push writes.
    func push(user: UserID, device: String, ops: [Op], cursor: FeedCursor?, planner: PushPlanner) async throws
        -> PushPlan
    /// Up to `limit` changes after sequence `after`, stopping early past `maxBytes`, leaving out
    /// the versions `device` wrote itself: their push results told it all it needs (SPEC: a
    /// device is not sent back the values it wrote).
    func pull(user: UserID, after: Int64, excluding device: String?, limit: Int, maxBytes: Int) async throws
        -> FeedPage
    /// Up to `limit` items (tombstones too) with ids after `after`, ordered by id.
    func snapshot(user: UserID, after: String?, limit: Int, maxBytes: Int) async throws -> SnapshotRead
    /// Removes tombstones deleted before `cutoff` (moving each user's horizon past them) and
    /// idempotency records older than `cutoff`.
    func purge(before cutoff: Date) async throws -> PurgeSummary
    /// Counts of what a user has, for tests and operators.
    func stats(user: UserID) async throws -> UserStats

    // MARK: Key rings

    /// The user's key ring, nil while the account is not encrypted.
    func keyRing(user: UserID) async throws -> StoredKeyRing?
    /// Stores `ring` as the user's key ring made from version `expected` (0 for the first), its
    /// current key beside it, and answers the new version; throws `KeyRingVersionConflict` when
    /// the stored version is another. The first ring also drops what the server held readable
    /// (`KeyRingSealing`).
    func storeKeyRing(user: UserID, ring: KeyRingWrite, expected: Int) async throws -> Int

    // MARK: Hints

    /// The user's latest feed sequence number.
    func feedSeq(user: UserID) async throws -> Int64
    /// Those of `hashes` that still belong to a token (the others were revoked).
    func validTokenHashes(_ hashes: Set<String>) async throws -> Set<String>
    /// Calls `publish` for every feed move any server process writes, until cancelled; returns
    /// at once when only this process writes (SQLite: the push publishes in process).
    func listenForFeedMoves(logger: Logger, _ publish: @escaping @Sendable (UserID, Int64) -> Void) async
}

/// A user's row id in the store.
struct UserID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// The owner of a token, as the token table says.
struct TokenOwner: Hashable, Sendable {
    public var user: UserID
    public var name: String
    /// The stored SHA-256 hex, compared in constant time with the presented token's.
    public var tokenHash: String
}

/// One line of `quire-server user list`.
public struct UserSummary: Hashable, Sendable {
    public var name: String
    public var createdAt: String
    public var tokens: Int
    public var items: Int
    /// What the user's rows take (`FeedHead.storedBytes`), against the storage quota.
    public var storedBytes: Int64 = 0
}

/// One line of `quire-server token list`.
public struct TokenSummary: Hashable, Sendable {
    /// The first characters of the token's stored hash: names it without revealing it.
    public var id: String
    /// The device it was issued for, when named.
    public var name: String?
    public var createdAt: String

    /// Hex digits of the hash shown as a token's id.
    static let idLength = 12
}

/// Which of a user's tokens `token revoke` removes.
public enum TokenSelector: Sendable, Hashable {
    case all
    /// The token issued with `--name`.
    case name(String)
    /// The token whose id starts with these hex digits (at least 4).
    case idPrefix(String)
}

extension TokenSelector {
    /// The hashes of the tokens this selects among a user's `tokens`; throws when it selects
    /// none, or when an id prefix fits more than one.
    func pick(from tokens: [(hash: String, name: String?)], user: String) throws -> [String] {
        let chosen: [String]
        switch self {
        case .all: chosen = tokens.map(\.hash)
        case .name(let name): chosen = tokens.filter { $0.name == name }.map(\.hash)
        case .idPrefix(let prefix):
            chosen = tokens.filter { $0.hash.hasPrefix(prefix.lowercased()) }.map(\.hash)
            if chosen.count > 1 { throw StoreError.ambiguousToken(prefix: prefix, count: chosen.count) }
        }
        if chosen.isEmpty, self != .all { throw StoreError.noSuchToken(user: user, self) }
        return chosen
    }
}

/// A page of the changes feed, as raw wire JSON.
struct FeedPage: Sendable {
    /// Each change's wire JSON, in sequence order.
    var docs: [String]
    /// The sequence number of the last change in `docs`.
    var lastSeq: Int64?
    var more: Bool
    var head: FeedHead
}

/// A page of the snapshot, as raw wire JSON.
struct SnapshotRead: Sendable {
    var docs: [String]
    var lastID: String?
    var more: Bool
    var head: FeedHead
    /// What the database kept of its earlier epochs for this user (see `SnapshotPage.lineage`).
    var lineage: ServerVersion?
}

/// SQL shared by both stores' migrations.
enum VersionSQL {
    /// Gives every stored document written before versions existed its version (its sequence
    /// number in the current epoch) and a null `doneAt`. Documents are compact JSON ending in
    /// `}`, so the keys go in just before it; `epoch` is a query for the store's epoch.
    static func stampLegacyDocuments(epoch: String) -> String {
        """
        UPDATE items SET doc = substr(doc, 1, length(doc) - 1) || ',"doneAt":null,"version":"' || seq || '.' || (\(epoch)) || '"}'
        WHERE doc NOT LIKE '%"version":"%'
        """
    }
}

/// SQL shared by both stores for the bytes a user's rows take (`FeedHead.storedBytes`).
enum StoredBytesSQL {
    /// The bytes of `users.id`'s rows, as an SQL expression; `length` is the dialect's byte
    /// length of a text value with `%@` where the column goes.
    static func counted(length: String) -> String {
        let doc = length.replacingOccurrences(of: "%@", with: "doc")
        let result = length.replacingOccurrences(of: "%@", with: "result")
        return """
            (SELECT COALESCE(SUM(\(doc)), 0) FROM items WHERE items.user_id = users.id)
            + (SELECT COALESCE(SUM(\(result)), 0) FROM op_results WHERE op_results.user_id = users.id)
            """
    }

    /// Sets every user's count from their rows (the migration that adds the count).
    static func recount(length: String) -> String {
        "UPDATE users SET stored_bytes = \(counted(length: length))"
    }
}

/// What a purge removed.
struct PurgeSummary: Hashable, Sendable {
    public var tombstones: Int
    public var records: Int
}

/// What a user has in the store.
struct UserStats: Hashable, Sendable {
    public var seq: Int64
    public var items: Int
    public var tombstones: Int
    public var records: Int
    public var stateHash: String
    /// The user's count of stored bytes, as pushes and purges keep it.
    public var storedBytes: Int64 = 0
    /// The same, counted again from the rows (equal to `storedBytes` unless the count drifted).
    public var countedBytes: Int64 = 0
}

/// Thrown inside a push when the request's cursor cannot continue the feed.
struct ResyncRequired: Error, Sendable {
    let reason: String
}

/// Store failures a person can act on.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case userExists(String)
    case userNotFound(String)
    case invalidName(String)
    case tokenNameTaken(user: String, name: String)
    case noSuchToken(user: String, TokenSelector)
    case ambiguousToken(prefix: String, count: Int)

    public var description: String {
        switch self {
        case .tokenNameTaken(let user, let name):
            "user '\(user)' already has a token named '\(name)': revoke it first or choose another name"
        case .noSuchToken(let user, .name(let name)): "user '\(user)' has no token named '\(name)'"
        case .noSuchToken(let user, .idPrefix(let prefix)):
            "user '\(user)' has no token whose id starts with '\(prefix)'"
        case .noSuchToken(let user, .all): "user '\(user)' has no tokens"
        case .ambiguousToken(let prefix, let count):
            "\(count) tokens have ids starting with '\(prefix)': give more of the id ('quire-server token list')"
        case .userExists(let name):
            "user '\(name)' already exists (issue another token with 'quire-server token add \(name)')"
        case .userNotFound(let name): "no user named '\(name)'"
        case .invalidName(let name): "invalid user name '\(name)': use 1 to 64 letters, digits, '.', '_' or '-'"
        }
    }
}

extension SyncStore {
    /// Checks a user name before it is stored.
    static func validate(name: String) throws -> String {
        let ok =
            !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._-".unicodeScalars.contains($0))
                    && $0.isASCII
            }
        guard ok else { throw StoreError.invalidName(name) }
        return name
    }
}

/// A new random epoch: 16 lowercase hex digits.
func makeEpoch() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = generator.next() as UInt64
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
