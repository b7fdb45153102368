/// Where a version of an item stands in the server's history: for each life (epoch) of the
/// server's database, the feed sequence number of the newest write of that life it builds on.
///
/// Revisions cannot order versions once a database is restored from a backup: the restored
/// server counts revisions again from where the backup stood, so "rev 3" may name two different
/// versions. A sequence number together with the epoch it was written in names one version
/// forever. A version written in epoch E at sequence s is `{E: s}` plus what it was built on;
/// a device that re-sends what a restore lost adds the version it re-sends (its `basis`), so
/// every device can tell whether the server's copy already holds the version it has.
///
/// On the wire and in the stores it is text: `SEQ.EPOCH` pairs separated by spaces, ordered by
/// epoch (the same `SEQ.EPOCH` form as a feed cursor).
public struct ServerVersion: Hashable, Sendable, CustomStringConvertible {
    /// Epoch → the newest sequence number of that epoch this version builds on.
    public private(set) var stamps: [String: Int64]

    public init(_ stamps: [String: Int64] = [:]) {
        self.stamps = stamps
    }

    /// The version written at `seq` in `epoch`, building on `earlier`.
    public init(writtenAt seq: Int64, in epoch: String, after earlier: ServerVersion? = nil) {
        stamps = earlier?.stamps ?? [:]
        stamps[epoch] = seq
    }

    /// Parses the text form; nil for anything malformed (so a bad value is never trusted).
    public init?(_ text: String) {
        var stamps: [String: Int64] = [:]
        for part in text.split(separator: " ") {
            let pieces = part.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count == 2, let seq = Int64(pieces[0]), seq >= 0, !pieces[1].isEmpty,
                pieces[1].utf8.count <= 64, stamps[String(pieces[1])] == nil
            else { return nil }
            stamps[String(pieces[1])] = seq
        }
        guard !stamps.isEmpty else { return nil }
        self.stamps = stamps
    }

    public var description: String {
        stamps.sorted { $0.key < $1.key }.map { "\($0.value).\($0.key)" }.joined(separator: " ")
    }

    public var isEmpty: Bool { stamps.isEmpty }

    /// The sequence number this version records for `epoch`, if any.
    public subscript(epoch: String) -> Int64? { stamps[epoch] }

    /// Both versions' stamps, the newer of each epoch: what a version building on both holds.
    public func joined(with other: ServerVersion?) -> ServerVersion {
        guard let other else { return self }
        return ServerVersion(stamps.merging(other.stamps) { max($0, $1) })
    }

    /// True when this version holds everything `other` holds: for every epoch `other` names, this
    /// one (or the server's `lineage`, what its database kept of older epochs) has reached at least
    /// as far. Versions of one item in one epoch are written one after another, so reaching a
    /// sequence number means holding every earlier version of that epoch.
    public func holds(_ other: ServerVersion, lineage: [String: Int64] = [:]) -> Bool {
        other.stamps.allSatisfy { epoch, seq in
            max(stamps[epoch] ?? -1, lineage[epoch] ?? -1) >= seq
        }
    }
}
