import Foundation
import QuireCore
import QuireProtocol

// MARK: - Reading again what did not open

/// A device that learns the account's keys after it received items sealed under them (an
/// unlock, a key learned from the key ring) holds them as unreadable, its cursor past them and
/// its state hash equal to the server's: nothing would bring them again until someone writes
/// them. So each round first reads again, through the snapshot read, the items never tried
/// with the keys the device holds now.
extension SyncEngine {
    /// Reads and applies the recorded unreadable items not yet tried with the transport's keys;
    /// nil when done (or there were none), else the failure.
    func rereadUnreadable(
        transport: any SyncTransport, report: inout SyncRoundReport
    ) async throws -> SyncMachine.RoundOutcome? {
        guard let keys = transport.openingKeys else { return nil }
        var wanted = try ledger.unreadableIDs(notTriedWith: keys, limit: limits.pageSize)
        guard !wanted.isEmpty else { return nil }
        var tried = 0
        var stillUnreadable = 0
        // A page holds the wanted items in id order with whatever lies between them: as many
        // items as are wanted at first, then twice as many as the last page held of them, so
        // items far apart cost about one small read each and items side by side one page.
        var limit = wanted.count
        for _ in 0..<limits.maxExchangesPerRound {
            guard let first = wanted.first else { break }
            let page: SyncExchange<SnapshotPage>
            do {
                page = try await transport.snapshot(after: SnapshotPage.idBefore(first), limit: limit)
            } catch {
                return try failed(error)
            }
            report.bytesReceived += page.bytesReceived
            // Through the page's last id (the first wanted at least), or to the end on the last page.
            let through = page.value.next.map { max($0, first) }
            let covered = Set(wanted.filter { id in through.map { id <= $0 } ?? true })
            stillUnreadable += try ledger.applyReread(
                page.value, covering: covered, unreadable: page.unreadable, triedKeys: keys)
            tried += covered.count
            limit = max(1, min(limits.pageSize, 2 * covered.count))
            wanted = try ledger.unreadableIDs(notTriedWith: keys, limit: limits.pageSize)
        }
        try ledger.log(
            .unreadable,
            "read \(SyncEngine.counted(tried, "unreadable item")) again with this device's keys: "
                + "\(tried - stillUnreadable) now open, \(stillUnreadable) still do not")
        return nil
    }
}

extension SnapshotPage {
    /// The `after` that starts a snapshot read at `id`: the id one less, as a hexadecimal
    /// number (the server takes only an id for `after`). Ids are UUIDs of one length, compared
    /// byte by byte, so no other id lies between the two. Nil (read from the start) for the
    /// smallest id, or text that is not an id.
    static func idBefore(_ id: String) -> String? {
        var bytes = Array(id.utf8)
        for index in bytes.indices.reversed() where bytes[index] != UInt8(ascii: "-") {
            switch bytes[index] {
            case UInt8(ascii: "0"):
                bytes[index] = UInt8(ascii: "f")  // and borrow from the digit before
            case UInt8(ascii: "a"), UInt8(ascii: "A"):
                bytes[index] = UInt8(ascii: "9")
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "b")...UInt8(ascii: "f"),
                UInt8(ascii: "B")...UInt8(ascii: "F"):
                bytes[index] -= 1
                return String(decoding: bytes, as: UTF8.self)
            default:
                return nil
            }
        }
        return nil
    }
}
