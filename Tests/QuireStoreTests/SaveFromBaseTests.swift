import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

/// `AppDatabase.save`: a write that started from a version merges with what changed since, by
/// the merge sync uses; undo goes through it too. (The editors' end-to-end tests with real
/// processes are in QuireCLITests and QuireAppTests.)
@Suite struct SaveFromBaseTests {
    /// Another device's version arrives, as sync writes it: not an action of this device.
    func arrive(_ store: AppDatabase, _ id: String, body: String) throws {
        try store.writer.write { db in
            var pulled = try #require(try ItemRow.fetch(id: id, in: db))
            pulled.body = body
            try ItemRow.update(pulled, in: db)
            try History.insert(pulled, origin: .remote, opID: nil, at: Date(), in: db)
        }
    }

    @Test func nothingMovedSavesAsItIs() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Plan", body: "a\n"))
        let saved = try store.save(item.id, from: [.body: .string("a\n")], to: [.body: .string("a\nb\n")])
        #expect(saved.outcome == .saved && saved.item.body == "a\nb\n")
        let same = try store.save(item.id, from: [.body: .string("a\nb\n")], to: [.body: .string("a\nb\n")])
        #expect(same.outcome == .unchanged)
    }

    @Test func aChangeMadeMeanwhileMergesIn() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Packing", body: "passport\ncharger\nsocks\n"))
        try store.update(
            item.id, fields: [.body: .string("umbrella\npassport\ncharger\nsocks\n"), .pinned: .bool(true)])
        let saved = try store.save(
            item.id, from: [.body: .string("passport\ncharger\nsocks\n"), .title: .string("Packing")],
            to: [.body: .string("passport\ncharger\nsocks\ntoothbrush\n"), .title: .string("Packing for Oslo")])
        #expect(saved.outcome == .merged)
        #expect(saved.item.body == "umbrella\npassport\ncharger\nsocks\ntoothbrush\n")
        #expect(saved.item.title == "Packing for Oslo" && saved.item.pinned)
        #expect(try store.conflicts().isEmpty)
    }

    @Test func aClashKeepsBothInTheRowAndRecordsTheThreeVersions() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Packing", body: "passport\ncharger\n"))
        try store.update(item.id, fields: [.body: .string("passport\nusb charger\n"), .title: .string("Trip")])
        let saved = try store.save(
            item.id, from: [.body: .string("passport\ncharger\n"), .title: .string("Packing")],
            to: [.body: .string("passport\nphone charger\n"), .title: .string("Oslo")])
        #expect(saved.outcome == .needsReview)
        #expect(saved.item.body == "passport\nphone charger\nusb charger\n")
        #expect(saved.item.syncState == .needsReview)
        let record = try #require(try store.conflicts().first)
        #expect(record.origin == .edit && record.fields == [.title, .body])
        #expect(record.local.body == "passport\nphone charger\n" && record.local.title == "Oslo")
        #expect(record.remote.body == "passport\nusb charger\n" && record.remote.title == "Trip")
        #expect(record.base?.body == "passport\ncharger\n")
        // Held while in review: nothing goes out before the person chooses.
        #expect(try store.syncStorage().read { try $0.sendableOps(limit: 10) }.isEmpty)
        #expect(try store.recentSyncEvents().first?.message.contains("both kept") == true)
    }

    @Test func undoMergesWithWhatChangedSince() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Plan", body: "a\nb\nc\n"))
        try store.update(item.id, fields: [.body: .string("a\nB\nc\n")])
        try arrive(store, item.id, body: "a\nB\nc\nd\n")
        let undone = try #require(try store.undoLastAction())
        #expect(undone.met == .merged)
        #expect(undone.text == "Undone: change to “Plan”, merged with what changed since")
        #expect(try store.item(item.id)?.body == "a\nb\nc\nd\n")
    }

    @Test func undoThatMeetsTheSameLineKeepsBothForReview() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Plan", body: "a\nb\nc\n"))
        try store.update(item.id, fields: [.body: .string("a\nB\nc\n")])
        try arrive(store, item.id, body: "a\nBee\nc\n")
        let undone = try #require(try store.undoLastAction())
        #expect(undone.met == .needsReview)
        let body = try #require(try store.item(item.id)?.body)
        #expect(body.contains("b\n") && body.contains("Bee\n"), "\(body)")
        #expect(try store.conflicts().count == 1)
    }
}
