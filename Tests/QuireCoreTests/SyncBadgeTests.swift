import Foundation
import QuireCore
import Testing

/// The one badge rule the store and sync both follow.
@Suite struct SyncBadgeTests {
    typealias Stage = OpStanding.Stage

    func badge(review: Bool = false, _ ops: [OpStanding]) -> SyncState {
        SyncBadge.state(needsReview: review, ops: ops)
    }

    @Test func nothingTravellingIsSynced() {
        #expect(badge([]) == .synced)
    }

    @Test func aConflictOutranksEverything() {
        #expect(badge(review: true, [OpStanding(stage: .refused), OpStanding(stage: .waiting)]) == .needsReview)
    }

    @Test func aRefusedOpShowsAsFailedEvenWithOthersWaiting() {
        #expect(badge([OpStanding(stage: .waiting), OpStanding(stage: .refused)]) == .error)
    }

    @Test func anOpTheServerKeepsFailingShowsAsFailedOnlyAfterEnoughSends() {
        let limit = SyncBadge.failedAttemptsForError
        #expect(badge([OpStanding(stage: .waiting, attempts: limit - 1, lastSendFailed: true)]) == .pending)
        #expect(badge([OpStanding(stage: .waiting, attempts: limit, lastSendFailed: true)]) == .error)
        #expect(
            badge([OpStanding(stage: .waiting, attempts: limit * 2, lastSendFailed: false)]) == .pending,
            "being offline is not the op's fault")
    }

    @Test func waitingOutranksSending() {
        #expect(badge([OpStanding(stage: .sending), OpStanding(stage: .waiting)]) == .pending)
        #expect(badge([OpStanding(stage: .sending), OpStanding(stage: .sending)]) == .syncing)
    }

    @Test func anItemNoServerHasIsLocalOnlyNeverSynced() {
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        var item = Item(id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "kept here", createdAt: created)
        item.syncState = .synced
        #expect(SyncBadge.isLocalOnly(item))
        #expect(SyncBadge.description(of: item).hasPrefix("local only"))
        #expect(!SyncBadge.description(of: item).hasPrefix("synced"))
        item.rev = 3
        #expect(!SyncBadge.isLocalOnly(item))
        #expect(SyncBadge.description(of: item) == "synced (revision 3)")
        item.rev = 0
        item.syncState = .pending
        #expect(!SyncBadge.isLocalOnly(item), "a create on its way is pending, not local only")
    }
}
