import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol

/// Turns an account's plain items into sealed ones on the server, once its key ring is stored
/// (SPEC: End-to-end encryption; `quire encryption enable`), and re-seals the items sealed
/// under an earlier data key once a rotation made a new one current (`quire encryption rotate`).
///
/// From the first key ring on, the server refuses plain writes and keeps the plain items it
/// holds until a device with the keys seals each one whole. This reads the server's every item
/// (the snapshot) and writes each live plain one back sealed, against exactly the version it
/// read, as a writer of its own (`writer`: not the device's id), so that the device then pulls
/// the sealed versions as ordinary changes and its base versions move with the server's. It
/// never goes through the outbox: what the person queued stays queued and is sealed when sent.
/// Run again, it finds nothing plain left (or what an interrupted run left) and finishes it.
/// A sealed item is written back whole under the current key, against its exact version, so
/// the server takes it whatever key its stored MACs are under.
public struct EncryptionConversion: Sendable {
    let transport: any SyncTransport
    let sealer: ItemSealer
    let writer: String

    public init(transport: any SyncTransport, sealer: ItemSealer, writer: String) {
        self.transport = transport
        self.sealer = sealer
        self.writer = writer
    }

    /// What a run did.
    public struct Outcome: Sendable, Hashable {
        /// Items found plain, or sealed under an earlier key, and written back sealed.
        public var sealed = 0
        /// Items already sealed under the current key (by an earlier run, or written sealed).
        public var alreadySealed = 0
        /// Items sealed under a key that does not open them here: left as they are.
        public var unreadable = 0
    }

    /// Seals every live item that is plain or sealed under an earlier key; throws the
    /// transport's failure (the run can be repeated).
    /// An item another device wrote between the read and the write is read again, a bounded
    /// number of times.
    public func run(batch: Int = 200) async throws(SyncTransportError) -> Outcome {
        var outcome = Outcome()
        for _ in 0..<5 {
            var plain: [ChangeItem] = []
            var after: String?
            outcome.unreadable = 0
            repeat {
                let page = try await transport.snapshot(after: after, limit: SyncLimits.maxPageLimit).value
                for item in page.items where !item.deleted {
                    if isCurrent(item) {
                        outcome.alreadySealed += 1
                    } else if let opened = try? sealer.open(item) {
                        plain.append(opened)
                    } else {
                        outcome.unreadable += 1
                    }
                }
                after = page.next
            } while after != nil
            guard !plain.isEmpty else { return outcome }
            var moved = 0
            for start in stride(from: 0, to: plain.count, by: batch) {
                let ops = plain[start..<min(start + batch, plain.count)].map(sealingOp)
                let request = SyncRequest(device: writer, cursor: nil, limit: 1, ops: ops)
                let answer = try await transport.sync(request).value
                for result in answer.results {
                    if result.status == .applied { outcome.sealed += 1 } else { moved += 1 }
                }
            }
            if moved == 0 { return outcome }
            outcome.alreadySealed = 0
        }
        return outcome
    }

    /// Whether every field of `item` is sealed under the current data key.
    func isCurrent(_ item: ChangeItem) -> Bool {
        guard let sealed = item.sealed else { return false }
        return sealed.values.allSatisfy { FieldCipher.keyID(of: $0.text) == sealer.keys.currentID }
    }

    /// The op that writes `item` (plain, or opened) back with every field sealed, resting on exactly its version.
    func sealingOp(for item: ChangeItem) -> Op {
        var ids = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        var fields: [Field: FieldChange] = [:]
        for field in Field.allCases {
            let value = item.value(of: field)
            fields[field] = FieldChange(from: value, to: value)
        }
        let op = Op(
            id: ids.next(now: Date(), using: &random), item: item.id, kind: .update, baseRev: item.rev, fields: fields,
            baseVersion: item.version)
        return sealer.seal(op)
    }
}
