import Foundation
import Testing

@testable import QuireCore

@Suite struct DayTests {
    @Test func parsesValidDates() {
        #expect(Day("2026-11-22")?.description == "2026-11-22")
        #expect(Day("2024-02-29") != nil)
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-1-01", "tomorrow", "", "2026-11-22x", "２０２６-11-22"])
    func rejectsInvalidDates(_ text: String) {
        #expect(Day(text) == nil)
    }
}

@Suite struct UUIDv7Tests {
    @Test func idsAreValidAndStrictlyIncreasingEvenWhenTheClockStandsStill() {
        var generator = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var previous = ""
        for _ in 0..<10_000 {
            let id = generator.next(now: now, using: &random)
            #expect(UUIDv7Generator.isValid(id))
            #expect(id > previous)
            previous = id
        }
    }

    @Test func versionAndVariantBitsAreSet() {
        var generator = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        let id = Array(generator.next(now: Date(), using: &random))
        #expect(id[14] == "7")
        #expect(["8", "9", "a", "b"].contains(id[19]))
    }
}

@Suite struct ItemFieldTests {
    let created = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func changesListOnlyTheFieldsThatDiffer() throws {
        let old = Item(id: "a", title: "Milk", createdAt: created)
        let new = try old.applying([.title: .string("Oat milk"), .tags: .strings(["b", "a", "a"])], now: created)
        let changes = new.changes(since: old)
        #expect(Set(changes.keys) == [.title, .tags])
        #expect(changes[.tags]?.to == .strings(["a", "b"]))
    }

    @Test func doneSetsAndClearsDoneAt() throws {
        var item = Item(id: "a", kind: .task, title: "Milk", createdAt: created)
        try item.set(.done, to: .bool(true), now: created.addingTimeInterval(5))
        #expect(item.doneAt == created.addingTimeInterval(5))
        try item.set(.done, to: .bool(false), now: created)
        #expect(item.doneAt == nil)
    }

    @Test func wrongTypesAndBadValuesAreRejected() {
        var item = Item(id: "a", title: "Milk", createdAt: created)
        #expect(throws: ValidationError.wrongType(field: .done)) {
            try item.set(.done, to: .string("yes"), now: created)
        }
        #expect(throws: ValidationError.emptyTitle) { try item.set(.title, to: .string("  "), now: created) }
        #expect(throws: ValidationError.invalidPriority("urgent")) {
            try item.set(.priority, to: .string("urgent"), now: created)
        }
        #expect(item.title == "Milk")
    }

    @Test func itemJSONRoundTripsWithRFC3339Times() throws {
        let item = Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", kind: .task, title: "Buy milk",
            tags: ["home"], due: Day("2026-12-01"), createdAt: created)
        let data = try JSONEncoder().encode(item)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"createdAt\":\"2023-11-14T22:13:20.000Z\""))
        #expect(text.contains("\"due\":\"2026-12-01\""))
        #expect(try JSONDecoder().decode(Item.self, from: data) == item)
    }

    @Test func fieldValuesEncodeAsTheWireShapes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let op = Op(
            id: "o", item: "i", kind: .update, baseRev: 2,
            fields: [
                .body: FieldChange(from: .sha256("ab"), to: .string("x")),
                .due: FieldChange(from: .null, to: .string("2026-01-01")),
            ])
        let text = String(decoding: try encoder.encode(op), as: UTF8.self)
        #expect(
            text
                == #"{"baseRev":2,"fields":{"body":{"from":{"sha256":"ab"},"to":"x"},"due":{"from":null,"to":"2026-01-01"}},"item":"i","kind":"update","op":"o"}"#
        )
        #expect(try JSONDecoder().decode(Op.self, from: Data(text.utf8)) == op)
    }
}
