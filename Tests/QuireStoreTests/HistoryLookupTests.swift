import Foundation
import GRDB
import Testing

@testable import QuireStore

/// Stamping an acknowledged op's version finds it through the item's own history, however long
/// the whole history is: a search by op id alone read every version once per op, and a first
/// push of 10k items took four times as long as it should.
@Suite struct HistoryLookupTests {
    @Test func anAcknowledgedVersionIsFoundThroughItsItem() throws {
        let store = try StoreFixture.make()
        let plan = try store.writer.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + AppDatabase.acknowledgeVersionSQL,
                arguments: [1, "v", nil, nil, nil, "item", "op"]
            ).map { row -> String in row["detail"] }
        }.joined(separator: " | ")
        // Without the item the plan is "SEARCH itemVersion": the table walked from its end.
        #expect(plan.contains("USING INDEX itemVersion_by_item (itemId=?)"), "\(plan)")
    }
}
