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
}
