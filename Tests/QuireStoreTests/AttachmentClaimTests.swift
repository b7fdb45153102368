import Foundation
import QuireCore
import Synchronization
import Testing

@testable import QuireStore

/// What this device knows of its claims on attached files (issue 32): a claim counts for its
/// live item, in its server epoch, for a week; deleting the item drops it, so restoring the
/// item from the trash claims the file again.
@Suite struct AttachmentClaimTests {
    @Test func aClaimCountsForItsLiveItemForAWeekAndGoesWithItsDelete() throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let environment = StoreEnvironment(
            now: { clock.withLock { $0 } }, newID: StoreEnvironment.deterministic().newID)
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try AppDatabase.open(path: directory + "/quire.db", environment: environment)
        let item = try store.create(NewItem(title: "Trip"))
        let hash = String(repeating: "b", count: 64)
        let claim = AttachmentClaim(item: item.id, hash: hash, address: hash)

        try store.recordClaims(of: [item.id], on: hash, at: hash)
        #expect(try store.attachmentClaims() == [claim])
        clock.withLock { $0 += 6 * 86_400 }
        #expect(try store.attachmentClaims() == [claim], "within the week")
        clock.withLock { $0 += 2 * 86_400 }
        #expect(try store.attachmentClaims().isEmpty, "a week on, the device claims it again")

        try store.recordClaims(of: [item.id], on: hash, at: hash)
        try store.delete([item.id])
        #expect(try store.attachmentClaims().isEmpty, "a deleted item's claims go")
        try store.recordClaims(of: [item.id], on: hash, at: hash)
        #expect(try store.attachmentClaims().isEmpty, "a deleted item is not claimed")
        try store.restore([item.id])
        #expect(try store.attachmentClaims().isEmpty, "restored from the trash, it claims the file again")
    }
}
