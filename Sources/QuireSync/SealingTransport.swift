import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol

/// The transport of a device that syncs an encrypted account, or may meet one: it seals every
/// op before it leaves and opens every item that arrives, so the ledger, the reconciler and the
/// merge work on plain items as before, and the server sees no plain value.
///
/// Without keys it passes plain ops through, and refuses to hand on anything once the server
/// says the account is encrypted (the round ends as refused: the device keeps its queue and the
/// person is asked to unlock). An item that does not open is left out of the answer and named
/// in the exchange's `unreadable`, so one tampered item never stops the others, and the ledger
/// records the version it could not read in the transaction that applies the answer.
///
/// An answer that names a key ring version other than the one the keys came from (another
/// device rotated the data key) has the device learn the new keys (`KeyLearning`) before it
/// opens that answer; every later op of the round is sealed under the new key.
public struct SealingTransport: SyncTransport {
    let base: any SyncTransport
    let keys: RoundKeys

    /// `ringVersion`: the key ring version `sealer`'s keys came from (nil when unknown);
    /// `learning`: how to learn keys a rotation added, nil to never read the ring.
    public init(_ base: any SyncTransport, sealer: ItemSealer?, ringVersion: Int? = nil, learning: KeyLearning? = nil) {
        self.base = base
        keys = RoundKeys(sealer: sealer, ringVersion: ringVersion, learning: learning)
    }

    /// The sealer new ops are sealed with: the held keys, or those learned this round.
    var sealer: ItemSealer? { keys.sealer }

    /// Files travel through the base transport, an encrypted account's sealed (`chunkSealer`).
    /// A device without keys never gets this far for an encrypted account: its round is refused
    /// first, and files move only after a round that caught up.
    public var files: (any AttachmentTransport)? { base.files }

    /// With keys, each file's chunks sealed under its own key; without, as they are.
    public var chunkSealer: any ChunkSealer {
        sealer.map { EncryptingChunkSealer(keys: $0.keys) } ?? base.chunkSealer
    }

    /// The keys this device holds now, as the credentials file has them at this round: after an
    /// unlock, or any other change of the keys stored (`SyncSettings.setDataKeys`), they differ
    /// from those the recorded unreadable items were tried with.
    public var openingKeys: String? { sealer?.fingerprint }

    /// The refusal a device without keys meets when the account is encrypted.
    static let locked = SyncTransportError.status(
        403,
        error: ErrorBody(
            .forbidden, "this account is encrypted: unlock it on this device with 'quire encryption unlock'"),
        retryAfter: nil)

    public func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
        var exchange = try await sendSealed(request)
        guard let ring = exchange.value.keyring else { return exchange }
        guard let sealer = await keys.sealer(forRing: ring) else { throw SealingTransport.locked }
        exchange.value.changes = sealer.open(exchange.value.changes, failing: &exchange.unreadable)
        for index in exchange.value.results.indices {
            guard let current = exchange.value.results[index].current else { continue }
            do {
                exchange.value.results[index].current = try sealer.open(current)
            } catch {
                exchange.unreadable.append(error)
                exchange.value.results[index] = Self.withoutUnreadableItem(exchange.value.results[index], error)
            }
        }
        return exchange
    }

    /// Sends `request` with its ops sealed under the current key. The server refuses ops sealed
    /// under a key older than its ring's current one (another device rotated the key while this
    /// one was away), naming the ring's version: the device learns the new key from that ring
    /// and sends the same ops sealed again, so what it queued lands under the new key, in this
    /// round. A ring that teaches it no newer key leaves the refusal to the round, which is
    /// retried later with the queue kept.
    private func sendSealed(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
        for attempt in 0... {
            let sealer = keys.sealer
            var sent = request
            if let sealer { sent.ops = request.ops.map(sealer.seal) }
            do {
                return try await base.sync(sent)
            } catch {
                guard attempt < Self.resealAttempts, let sealer, case .status(409, let body?, _) = error,
                    let ring = body.keyring, let renewed = await keys.sealer(forRing: ring),
                    renewed.keys.currentID > sealer.keys.currentID
                else { throw error }
            }
        }
        preconditionFailure("the attempts above return or throw")
    }

    /// Rotations a round follows before it leaves a refusal to the next round: one is the
    /// usual case, more are rotations made on other devices while this one sealed again.
    static let resealAttempts = 3

    /// An op's answer whose item does not open on this device. Sending the op again would
    /// bring the same answer (the server keeps each op's result), so it is never sent again by
    /// itself: an applied op is done, without the server's copy; a conflicting one is set aside
    /// with the reason, kept for the person to retry once the item opens here (its keys
    /// unlocked, or the server's copy mended), as every other item syncs on.
    static func withoutUnreadableItem(_ result: OpResult, _ error: ItemUnreadable) -> OpResult {
        guard result.status != .applied else {
            var applied = result
            applied.current = nil
            return applied
        }
        return .rejected(
            result.op,
            reason: "the server's copy of this item does not open here (\(error.reason)): the change is set aside; "
                + "retry it once the item opens")
    }

    public func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
        var exchange = try await base.snapshot(after: after, limit: limit)
        guard let ring = exchange.value.keyring else { return exchange }
        guard let sealer = await keys.sealer(forRing: ring) else { throw SealingTransport.locked }
        exchange.value.items = sealer.open(exchange.value.items, failing: &exchange.unreadable)
        return exchange
    }
}
