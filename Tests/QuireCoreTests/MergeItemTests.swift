import Foundation
import Testing

@testable import QuireCore

@Suite struct MergeItemTests {
    let created = Date(timeIntervalSince1970: 1_790_000_000)
    let later = Date(timeIntervalSince1970: 1_790_000_600)

    var base: Item {
        Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", kind: .task, title: "Buy milk",
            body: "one\ntwo\nthree\n", tags: ["home", "errand"], due: Day("2026-12-01"), priority: .low,
            createdAt: created, rev: 4, syncState: .synced)
    }

    func edited(_ item: Item, _ change: (inout Item) -> Void) -> Item {
        var copy = item
        change(&copy)
        return copy
    }

    @Test func differentFieldsMergeSilently() {
        let local = edited(base) {
            $0.title = "Buy oat milk"
            $0.priority = .high
        }
        let remote = edited(base) {
            $0.due = Day("2026-12-24")
            $0.pinned = true
            $0.rev = 5
        }
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(!merge.needsReview)
        #expect(merge.item.title == "Buy oat milk")
        #expect(merge.item.priority == .high)
        #expect(merge.item.due == Day("2026-12-24"))
        #expect(merge.item.pinned)
        #expect(merge.item.rev == 5, "the merge is made against the remote revision")
        #expect(Set(merge.item.changes(since: remote).keys) == [.title, .priority], "what to push")
    }

    @Test(arguments: [
        (Field.title, FieldValue.string("Oat milk"), FieldValue.string("Soy milk")),
        (.due, .string("2026-12-24"), .null),
        (.priority, .string("high"), .string("medium")),
    ])
    func theSameFieldSetDifferentlyConflictsAndKeepsTheLocalValue(
        _ field: Field, _ localValue: FieldValue, _ remoteValue: FieldValue
    ) throws {
        let local = try base.applying([field: localValue], now: later)
        let remote = try base.applying([field: remoteValue], now: later)
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(merge.conflicts == [field])
        #expect(merge.needsReview)
        #expect(merge.item.value(of: field) == localValue)
    }

    /// A two-valued field changed by both sides was necessarily set to the same value.
    @Test(arguments: [Field.done, .pinned, .kind])
    func twoValuedFieldsChangedOnBothSidesAgree(_ field: Field) throws {
        let flipped: FieldValue =
            switch base.value(of: field) {
            case .bool(let flag): .bool(!flag)
            default: .string("note")
            }
        let local = try base.applying([field: flipped, .title: .string("Local")], now: later)
        let remote = try base.applying([field: flipped], now: later)
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(!merge.needsReview)
        #expect(merge.item.value(of: field) == flipped)
        #expect(merge.item.title == "Local")
    }

    @Test func tagsMergeAsSets() {
        let local = edited(base) { $0.tags = ["home", "urgent"] }  // -errand +urgent
        let remote = edited(base) { $0.tags = ["errand", "home", "weekend"] }  // +weekend
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(merge.item.tags == ["home", "urgent", "weekend"])
        #expect(!merge.needsReview)
    }

    @Test func bodiesMergeByLineAndOnlyOverlapsConflict() {
        let local = edited(base) { $0.body = "ONE\ntwo\nthree\n" }
        let remote = edited(base) { $0.body = "one\ntwo\nTHREE\n" }
        let clean = ItemMerge(base: base, local: local, remote: remote)
        #expect(clean.item.body == "ONE\ntwo\nTHREE\n")
        #expect(!clean.needsReview)

        let clash = ItemMerge(base: base, local: local, remote: edited(base) { $0.body = "uno\ntwo\nthree\n" })
        #expect(clash.conflicts == [.body])
        #expect(clash.item.body == local.body, "the person keeps seeing their own text")
        #expect(clash.body?.conflicts.first?.base == ["one\n"])
        #expect(clash.body?.conflicts.first?.remote == ["uno\n"])
    }

    @Test func doneAtFollowsTheSideWhoseDoneIsTaken() throws {
        let remote = try base.applying([.done: .bool(true)], now: later)
        let merge = ItemMerge(base: base, local: edited(base) { $0.title = "Milk" }, remote: remote)
        #expect(merge.item.done)
        #expect(merge.item.doneAt == later)
    }

    @Test func localEditAgainstRemoteDeleteKeepsTheEditAndNeedsReview() {
        let local = edited(base) { $0.body = "one\ntwo\nthree\nfour\n" }
        let remote = edited(base) {
            $0.deleted = true
            $0.rev = 5
        }
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(merge.deleteConflict == .deletedRemotely)
        #expect(merge.needsReview)
        #expect(!merge.item.deleted)
        #expect(merge.item.body == local.body)
        #expect(merge.resolved(.remote).deleted, "accepting the delete")
        #expect(!merge.resolved(.local).deleted, "restoring with the edit")
        #expect(merge.resolved(.local).body == local.body)
    }

    @Test func localDeleteAgainstRemoteEditKeepsTheEditAndNeedsReview() {
        let local = edited(base) { $0.deleted = true }
        let remote = edited(base) {
            $0.title = "Buy milk today"
            $0.rev = 5
        }
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(merge.deleteConflict == .deletedLocally)
        #expect(!merge.item.deleted)
        #expect(merge.item.title == "Buy milk today")
        #expect(merge.resolved(.local).deleted)
        #expect(!merge.resolved(.both).deleted)
    }

    @Test func aDeleteMeetingNoEditIsSimplyTaken() {
        let merge = ItemMerge(base: base, local: base, remote: edited(base) { $0.deleted = true })
        #expect(merge.item.deleted)
        #expect(!merge.needsReview)
        let both = ItemMerge(
            base: base,
            local: edited(base) {
                $0.deleted = true
                $0.title = "x"
            },
            remote: edited(base) {
                $0.deleted = true
                $0.title = "y"
            })
        #expect(both.item.deleted)
        #expect(!both.needsReview, "both deleted it: nothing to review")
    }

    @Test func aTombstoneBroughtBackEditedAndDeletedAgainKeepsItsLastVersion() {
        let tombstone = edited(base) { $0.deleted = true }
        let local = edited(tombstone) {
            $0.body = "one\ntwo\nthree\nfour\n"
            $0.title = "Buy oat milk"
        }
        let merge = ItemMerge(base: tombstone, local: local, remote: tombstone)
        #expect(merge.item.deleted)
        #expect(!merge.needsReview)
        #expect(merge.item.body == local.body, "the server's tombstone changed nothing: this side's version stays")
        #expect(merge.item.title == "Buy oat milk")
        // Deleted on both sides after changes of each: the server's tombstone, as before.
        let remote = edited(tombstone) {
            $0.title = "Buy soy milk"
            $0.rev = 6
        }
        #expect(ItemMerge(base: tombstone, local: local, remote: remote).item.hasSameContent(as: remote))
    }

    @Test func aRestoreMeetingNoEditIsTaken() {
        let deletedBase = edited(base) { $0.deleted = true }
        let merge = ItemMerge(base: deletedBase, local: edited(deletedBase) { $0.deleted = false }, remote: deletedBase)
        #expect(!merge.item.deleted)
        #expect(!merge.needsReview)
    }

    @Test func resolutionsGiveLocalRemoteBothOrTheMergedBody() {
        let local = edited(base) {
            $0.title = "Oat milk"
            $0.body = "one\nTWO\nthree\n"
            $0.pinned = true
        }
        let remote = edited(base) {
            $0.title = "Soy milk"
            $0.body = "one\n2\nthree\n"
            $0.rev = 9
            $0.priority = .high
        }
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(merge.conflicts == [.title, .body])

        // Either side settles the conflicting fields; what only one side changed stays.
        let keepLocal = merge.resolved(.local)
        #expect(keepLocal.title == "Oat milk")
        #expect(keepLocal.body == local.body)
        #expect(keepLocal.pinned && keepLocal.priority == .high)
        #expect(keepLocal.rev == 9)

        let keepRemote = merge.resolved(.remote)
        #expect(keepRemote.title == "Soy milk")
        #expect(keepRemote.body == remote.body)
        #expect(keepRemote.pinned && keepRemote.priority == .high)

        let both = merge.resolved(.both)
        #expect(both.body == "one\nTWO\n2\nthree\n")
        #expect(both.title == "Oat milk")
        #expect(both.priority == .high, "clean parts of the merge stay")
        #expect(both.pinned)

        let own = merge.resolved(body: "one\nzwei\nthree\n")
        #expect(own.body == "one\nzwei\nthree\n")
        #expect(own.priority == .high)
    }

    @Test func withoutABaseFieldsSetDifferentlyConflictAndTagsUnite() {
        let local = Item(id: base.id, title: "Mine", tags: ["a"], createdAt: created)
        let remote = Item(id: base.id, title: "Theirs", tags: ["b"], createdAt: created, rev: 1)
        let merge = ItemMerge(base: nil, local: local, remote: remote)
        #expect(merge.conflicts == [.title])
        #expect(merge.item.tags == ["a", "b"])
    }
}
