import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol
import Testing

@testable import QuireSync

/// `ItemSealer`: what a device seals opens back to exactly the item it was, and what a server
/// moved or altered does not open.
@Suite struct ItemSealerTests {
    let sealer: ItemSealer
    let other: ItemSealer

    init() throws {
        sealer = ItemSealer(
            keys: try KeyRing.create(passphrase: "a passphrase", parameters: .minimum).unlocked.dataKeys)
        other = ItemSealer(keys: try KeyRing.create(passphrase: "a passphrase", parameters: .minimum).unlocked.dataKeys)
    }

    /// The item a server stores from a sealed create: every field's sealed value, nothing plain.
    func stored(_ op: Op, rev: Int = 1) -> ChangeItem {
        var sealed: [Field: SealedValue] = [:]
        for (field, change) in op.fields ?? [:] {
            guard case .sealed(let value) = change.to else { continue }
            sealed[field] = value
        }
        return ChangeItem(
            id: op.item, rev: rev, title: "", createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_100), sealed: sealed)
    }

    func create(_ item: String, _ values: [Field: FieldValue]) -> Op {
        Op(
            id: "op", item: item, kind: .create, baseRev: 0,
            fields: values.mapValues { FieldChange(from: .null, to: $0) })
    }

    @Test func everyFieldOpensToTheValueItWasSealedFrom() throws {
        let values: [Field: FieldValue] = [
            .kind: .string("task"), .title: .string("Water the plants 🌱"), .body: .string("- [ ] ferns\n- [x] cacti"),
            .tags: .strings(["home", "garden"]), .done: .bool(true), .due: .string("2026-11-29"),
            .priority: .string("high"), .pinned: .bool(true), .project: .string("home.garden"),
            .recur: .string("weekly"), .wait: .string("2026-11-27"), .scheduled: .string("2026-11-28"),
        ]
        let op = sealer.seal(create("item-1", values))
        for change in (op.fields ?? [:]).values {
            guard case .sealed = change.to, case .mac = change.from else {
                Issue.record("a value left plain: \(change)")
                continue
            }
        }
        let opened = try sealer.open(stored(op))
        for (field, value) in values {
            let expected = field == .tags ? FieldValue.strings(["garden", "home"]) : value
            #expect(opened.value(of: field) == expected, "\(field)")
        }
        #expect(opened.sealed == nil && opened.rev == 1)
    }

    @Test func aCreateSealsEveryFieldSoEachHasAMACToCompare() {
        let op = sealer.seal(create("item-2", [.title: .string("Only a title")]))
        #expect(Set(op.fields?.keys ?? [:].keys) == Set(Field.allCases))
    }

    @Test func equalValuesGiveEqualMACsHoweverTheyAreWritten() {
        let body = "a long body"
        #expect(
            sealer.mac(of: .string(body), field: .body, item: "i")
                == sealer.mac(of: .sha256(ContentHash.sha256Hex(body)), field: .body, item: "i"))
        #expect(
            sealer.mac(of: .strings(["b", "a", "a"]), field: .tags, item: "i")
                == sealer.mac(of: .strings(["a", "b"]), field: .tags, item: "i"))
        #expect(sealer.mac(of: .null, field: .tags, item: "i") == sealer.mac(of: .strings([]), field: .tags, item: "i"))
        // Bound to item and field: the same value elsewhere is not the same MAC.
        #expect(
            sealer.mac(of: .string("x"), field: .title, item: "i")
                != sealer.mac(of: .string("x"), field: .title, item: "j"))
        #expect(
            sealer.mac(of: .string("x"), field: .title, item: "i")
                != sealer.mac(of: .string("x"), field: .body, item: "i"))
    }

    @Test func aValueMovedFromAnotherItemOrFieldDoesNotOpen() throws {
        let first = stored(sealer.seal(create("item-a", [.title: .string("A")])))
        let second = stored(sealer.seal(create("item-b", [.title: .string("B")])))
        var moved = second
        moved.sealed?[.title] = first.sealed?[.title]
        #expect(throws: ItemUnreadable.self) { try sealer.open(moved) }
        var swapped = first
        swapped.sealed?[.title] = first.sealed?[.project]
        #expect(throws: ItemUnreadable.self) { try sealer.open(swapped) }
    }

    @Test func anAlteredValueAMismatchedMACOrAnotherAccountsKeyDoesNotOpen() throws {
        let item = stored(sealer.seal(create("item-c", [.title: .string("C")])))
        var flipped = item
        var text = Array(item.sealed![.title]!.text)
        text[text.count - 3] = text[text.count - 3] == "A" ? "B" : "A"
        flipped.sealed?[.title]?.text = String(text)
        #expect(throws: ItemUnreadable.self) { try sealer.open(flipped) }

        var relabelled = item
        relabelled.sealed?[.title]?.mac = item.sealed![.body]!.mac
        #expect(throws: ItemUnreadable.self) { try sealer.open(relabelled) }

        do {
            _ = try other.open(item)
            Issue.record("another account's keys opened the item")
        } catch {
            #expect(error.id == "item-c")
            #expect(error.reason.contains("does not open"))
        }
    }

    @Test func anEncryptedAccountsFilesTravelSealedAndAPlainAccountsAsTheyAre() {
        let http = HTTPSyncTransport(baseURL: "http://127.0.0.1:9", token: "t", now: { Date() })
        let encrypted = SealingTransport(http, sealer: sealer)
        #expect(encrypted.files != nil)
        #expect(encrypted.chunkSealer is EncryptingChunkSealer)
        #expect(SealingTransport(http, sealer: nil).chunkSealer is PlaintextChunkSealer)
        #expect(http.files != nil)
    }

    @Test func aPlainItemPassesThrough() throws {
        let plain = ChangeItem(id: "p", rev: 3, title: "Plain", createdAt: Date(), updatedAt: Date())
        #expect(try sealer.open(plain) == plain)
    }
}
