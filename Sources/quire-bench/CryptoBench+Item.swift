import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireSync

/// Opening a whole item as a first pull does (issue 29): every one of its twelve fields opened
/// and its MAC checked, the item rebuilt. A pull of 100,000 items does this 100,000 times, so
/// this row, not the single field's, is what the pull's extra time is made of.
extension CryptoBench {
    func itemRow(keys: DataKeys) -> CryptoBenchRow {
        let sealer = ItemSealer(keys: keys)
        let op = sealer.seal(
            Op(
                id: "op", item: Self.item, kind: .create, baseRev: 0,
                fields: [
                    .title: FieldChange(from: .null, to: .string("Pulled item 4711")),
                    .body: FieldChange(from: .null, to: .string("Some text for item 4711\n")),
                ]))
        var sealed: [Field: SealedValue] = [:]
        for (field, change) in op.fields ?? [:] {
            if case .sealed(let value) = change.to { sealed[field] = value }
        }
        let stored = ChangeItem(
            id: Self.item, rev: 1, title: "", createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000), sealed: sealed)
        let items = max(1, fields / Field.allCases.count)
        let clock = ContinuousClock()
        let times = (0..<5).map { _ in
            clock.measure { for _ in 0..<items { _ = try? sealer.open(stored) } } / items
        }
        return CryptoBenchRow(
            "open a pulled item: its \(Field.allCases.count) fields opened and their MACs checked",
            Self.micros(Self.median(times)), "—")
    }
}
