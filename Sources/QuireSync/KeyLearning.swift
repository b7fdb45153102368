import Foundation
import QuireCrypto
import QuireProtocol
import Synchronization

/// How a device learns the data keys a rotation on another device added (`quire encryption
/// rotate`), without asking for the passphrase: it reads the account's key ring and follows its
/// chains from the keys it holds (`KeyRing.learning(from:)`), then keeps what it learned where
/// unlocking keeps keys (`SyncSettings.setDataKeys`), with the ring's version.
///
/// The ring is read only when a sync answer names a ring version other than the one the held
/// keys came from, so an ordinary round costs no extra request.
///
/// A ring that lacks keys the device holds was restored with the server from a backup made
/// before a rotation. The device puts them back from the copy of the ring it kept
/// (`KeyRing.restoring(keysFrom:)`), as it sends again the items the restore lost, rather than
/// go back to sealing under the older key: a later rotation would then give the next id to a
/// second key, which the devices holding the first would take for it.
public struct KeyLearning: Sendable {
    let settings: SyncSettings
    let readRing: @Sendable () async throws(SyncTransportError) -> KeyRingDocument?
    let storeRing: @Sendable (KeyRingDocument) async throws(SyncTransportError) -> Int

    public init(
        settings: SyncSettings, readRing: @escaping @Sendable () async throws(SyncTransportError) -> KeyRingDocument?,
        storeRing: @escaping @Sendable (KeyRingDocument) async throws(SyncTransportError) -> Int
    ) {
        self.settings = settings
        self.readRing = readRing
        self.storeRing = storeRing
    }

    /// The keys `held` leads to in the account's ring, kept on this device, with the version
    /// they come from; nil when the ring could not be read or used (the next round tries again,
    /// and what does not open meanwhile is marked unreadable with the reason).
    public func learn(holding held: DataKeys) async -> (keys: DataKeys, ringVersion: Int)? {
        guard var document = try? await readRing() else { return nil }
        if let kept = settings.keptKeyRing(), let restored = document.keyring.restoring(keysFrom: kept) {
            // Stored only over the ring read: a ring another device changed meanwhile is read
            // again at the next round.
            guard let version = try? await storeRing(KeyRingDocument(version: document.version, keyring: restored))
            else { return nil }
            document = KeyRingDocument(version: version, keyring: restored)
        }
        guard let learned = try? document.keyring.learning(from: held),
            (try? settings.setDataKeys(learned, from: document)) != nil
        else { return nil }
        return (learned, document.version)
    }
}

/// The sealer a round's transport uses, which a rotation learned mid-round replaces; shared by
/// the exchanges of one round (the read-ahead's among them), guarded by its mutex.
final class RoundKeys: Sendable {
    private struct State {
        var sealer: ItemSealer?
        /// The ring version the sealer's keys are known to be current for, nil when unknown.
        var ringVersion: Int?
    }

    private let state: Mutex<State>
    let learning: KeyLearning?

    init(sealer: ItemSealer?, ringVersion: Int?, learning: KeyLearning?) {
        state = Mutex(State(sealer: sealer, ringVersion: ringVersion))
        self.learning = learning
    }

    var sealer: ItemSealer? { state.withLock { $0.sealer } }

    /// The sealer to open an answer that names ring `version` with: the held one, or one with
    /// the keys learned from that ring when it is another version. A device without keys
    /// learns nothing (only unlocking gives it keys).
    func sealer(forRing version: Int) async -> ItemSealer? {
        let (sealer, known) = state.withLock { ($0.sealer, $0.ringVersion) }
        guard let sealer, known != version, let learning else { return sealer }
        guard let learned = await learning.learn(holding: sealer.keys) else {
            // Not again this round: the next round reads the ring again.
            state.withLock { $0.ringVersion = version }
            return sealer
        }
        let renewed = ItemSealer(keys: learned.keys)
        state.withLock {
            $0.sealer = renewed
            $0.ringVersion = learned.ringVersion
        }
        return renewed
    }
}
