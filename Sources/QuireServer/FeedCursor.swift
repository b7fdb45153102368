/// The pull position, written on the wire as `"<seq>.<epoch>"`; opaque to clients.
///
/// Carrying the epoch lets the server tell a cursor from another life of its database (a
/// restored backup, a new database) and answer `410 resync_required` instead of serving a
/// feed that silently misses changes.
struct FeedCursor: Hashable, Sendable, CustomStringConvertible {
    /// The last sequence number the device has seen.
    var seq: Int64
    var epoch: String

    init(seq: Int64, epoch: String) {
        self.seq = seq
        self.epoch = epoch
    }

    /// Parses the wire form; nil when it is not one this server wrote.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 18,
            parts[0].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seq = Int64(parts[0]),
            !parts[1].isEmpty, parts[1].utf8.count <= 64,
            parts[1].utf8.allSatisfy({
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            })
        else { return nil }
        self.seq = seq
        self.epoch = String(parts[1])
    }

    var description: String { "\(seq).\(epoch)" }

    /// Why a cursor cannot continue the feed, or nil when it can.
    ///
    /// - another epoch: the database was created anew or restored from a backup;
    /// - below the horizon: tombstones the device never saw were purged;
    /// - beyond the head: the database forgot writes the device saw (a restored backup).
    func resyncReason(head: FeedHead) -> String? {
        if epoch != head.epoch {
            return
                "the cursor belongs to another epoch of the server database (it was created anew or restored); resync from /v1/snapshot"
        }
        if seq < head.horizon {
            return "the cursor is older than the retention horizon; resync from /v1/snapshot"
        }
        if seq > head.seq {
            return
                "the cursor is ahead of the server (was its database restored from a backup?); resync from /v1/snapshot"
        }
        return nil
    }
}
