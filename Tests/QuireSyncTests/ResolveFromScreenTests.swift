import Foundation
import QuireCore
import QuireProtocol
import QuireStore
import Testing

@testable import QuireSync

/// A resolution is a write that starts from the versions the resolve screen showed: what moved
/// since (a newer server version pulled meanwhile) merges into what the person made, or the
/// write is refused and nothing is lost. And a record made by a save that met another writer
/// on this device resolves as a change of its row, dropping none of the ops that carry it.
@Suite struct ResolveFromScreenTests {
    let base = SyncReconcilerTests()

    /// A conflict on the body's second line; the person typed their own merge of it.
    func inReview() throws -> (LocalItem, SyncReconciler) {
        var local = try base.edited([.body: .string("one\nTWO\nthree\n")])
        var reconciler = base.reconciler()
        reconciler.apply(pulled: try base.server([.body: .string("one\n2\nthree\n")], rev: 4), to: &local)
        #expect(local.conflict != nil)
        return (local, reconciler)
    }

    func screen(of local: LocalItem, made body: String) throws -> SyncReconciler.ResolutionScreen {
        let conflict = try #require(local.conflict)
        let row = try #require(local.item)
        var made = conflict.merge(showing: row).resolved(body: body)
        made.rev = conflict.remote.rev
        return SyncReconciler.ResolutionScreen(
            local: conflict.shownLocal(row: row), remote: conflict.remote, made: made)
    }

    @Test func aServerChangeElsewhereInTheBodyMergesIntoTheTypedResolution() throws {
        var (local, reconciler) = try inReview()
        let seen = try screen(of: local, made: "one\ntwo (both)\nthree\n")
        // While the person typed, the other device added a line at the end.
        reconciler.apply(pulled: try base.server([.body: .string("one\n2\nthree\nfour\n")], rev: 5), to: &local)
        #expect(
            try reconciler.resolve(
                &local, keeping: .local, body: "one\ntwo (both)\nthree\n", setting: [:], screen: seen))
        #expect(local.item?.body == "one\ntwo (both)\nthree\nfour\n")
        #expect(local.conflict == nil)
    }

    @Test func aServerChangeWhereThePersonChoseIsRefusedAndTheReviewKept() throws {
        var (local, reconciler) = try inReview()
        let seen = try screen(of: local, made: "one\ntwo (both)\nthree\n")
        reconciler.apply(pulled: try base.server([.body: .string("one\ndeux\nthree\n")], rev: 5), to: &local)
        #expect(throws: SyncReconciler.ResolutionScreen.ChangedMeanwhile.self) {
            try reconciler.resolve(
                &local, keeping: .local, body: "one\ntwo (both)\nthree\n", setting: [:], screen: seen)
        }
        #expect(local.conflict != nil)
        #expect(local.item?.body.contains("TWO") == true)
    }

    @Test func nothingMovedWritesWhatThePersonMade() throws {
        var (local, reconciler) = try inReview()
        let seen = try screen(of: local, made: "one\ntwo (both)\nthree\n")
        #expect(
            try reconciler.resolve(
                &local, keeping: .local, body: "one\ntwo (both)\nthree\n", setting: [:], screen: seen))
        #expect(local.item?.body == "one\ntwo (both)\nthree\n")
    }

    /// An edit record: the row (both sides) is queued; resolving keeps that op and adds one.
    @Test func anEditRecordResolvesAsAChangeOfItsRow() throws {
        var local = try base.edited([.body: .string("one\nTWO\n2\nthree\n")])
        let row = try #require(local.item)
        var mine = base.synced
        mine.body = "one\nTWO\nthree\n"
        var theirs = base.synced
        theirs.body = "one\n2\nthree\n"
        local.conflict = ConflictRecord(
            itemID: row.id, base: base.synced, local: mine, remote: theirs, fields: [.body], detectedAt: base.t0,
            origin: .edit)
        var reconciler = base.reconciler()
        #expect(reconciler.resolve(&local, keeping: .remote))
        #expect(local.item?.body == "one\n2\nthree\n")
        #expect(local.ops.count == 2, "the row's own op stays, the choice follows it")
        #expect(
            local.ops.last?.op.fields?[.body] == FieldChange(from: .string(row.body), to: .string("one\n2\nthree\n")))
        #expect(local.conflict == nil)
    }
}
