import Foundation
import QuireCore
import QuireStore
import Testing

/// An item's `createdAt` is the time its id names, which is what the server takes (it never
/// receives `createdAt`): a device that kept its clock's reading instead showed another
/// creation time than every other device once the id had moved past the clock.
@Suite struct CreationTimeTests {
    /// Ids made 4.2 ms after the clock's reading, as the generator makes them when it has run
    /// out of counter within a millisecond or the clock has stepped back.
    static func idsAheadOfTheClock() -> StoreEnvironment {
        let base = StoreEnvironment.deterministic()
        return StoreEnvironment(now: base.now, newID: { base.newID($0.addingTimeInterval(0.0042)) })
    }

    @Test func aNewItemIsCreatedAtTheTimeItsIDNames() throws {
        let store = try AppDatabase.temporary(environment: Self.idsAheadOfTheClock())
        let item = try store.create(NewItem(title: "Milk"))
        let named = try #require(UUIDv7Generator.creationTime(ofID: item.id))
        #expect(item.createdAt == named)
        #expect(try store.item(item.id)?.createdAt == named, "as stored")
        #expect(item.updatedAt < item.createdAt, "updatedAt is the clock's reading, before the id's time")
    }

    @Test func anImportedEntryWithoutAnIDKeepsItsCreationTimeInTheIDItGets() throws {
        let store = try AppDatabase.temporary(environment: Self.idsAheadOfTheClock())
        let written = Date(timeIntervalSince1970: 1_735_689_600.123)
        _ = try store.importItems([ImportEntry(title: "Old note", createdAt: written)])
        let item = try #require(try store.items().first)
        #expect(UUIDv7Generator.creationTime(ofID: item.id) == StoreTime.truncated(written))
        #expect(item.createdAt == StoreTime.truncated(written))
    }

    @Test func anImportedEntryWhoseIDNamesAnotherTimeIsCreatedWhenItsIDSays() throws {
        let store = try AppDatabase.temporary(environment: Self.idsAheadOfTheClock())
        let id = "0193a9d2-7fff-7000-8000-00000000abcd"
        _ = try store.importItems([
            ImportEntry(id: id, title: "Edited by hand", createdAt: Date(timeIntervalSince1970: 1_600_000_000))
        ])
        #expect(try store.item(id)?.createdAt == UUIDv7Generator.creationTime(ofID: id))
    }

    @Test func aRetimedIDNamesTheNewTimeAndKeepsEveryOtherBit() throws {
        let id = "0193a9d2-7fff-7abc-8def-0123456789ab"
        let date = Date(timeIntervalSince1970: 1_735_689_600.123)
        let retimed = UUIDv7Generator.id(id, retimedTo: date)
        #expect(UUIDv7Generator.creationTime(ofID: retimed) == StoreTime.truncated(date))
        #expect(retimed.dropFirst(13) == id.dropFirst(13))
        #expect(UUIDv7Generator.isValid(retimed))
    }
}
