import QuireApp
import QuireCore
import QuireUI

/// An item source over another that forwards every call to it; a test's source states only
/// what it does differently (fails writes, notes reads).
protocol WrappedItemSource: ItemSource {
    var base: any ItemSource { get }
}

extension WrappedItemSource {
    func page(_ query: ListQuery, offset: Int, limit: Int) throws -> ItemWindow {
        try base.page(query, offset: offset, limit: limit)
    }
    func index(of id: String, in query: ListQuery, near: Int) throws -> Int? {
        try base.index(of: id, in: query, near: near)
    }
    func item(_ id: String) throws -> Item? { try base.item(id) }
    func create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values) throws -> Item {
        try base.create(kind: kind, title: title, body: body, details: details)
    }
    func update(_ id: String, fields: [Field: FieldValue]) throws -> Item { try base.update(id, fields: fields) }
    func save(_ id: String, from before: [Field: FieldValue], to after: [Field: FieldValue]) throws -> SavedWrite {
        try base.save(id, from: before, to: after)
    }
    func delete(_ id: String) throws { try base.delete(id) }
    func restore(_ id: String) throws { try base.restore(id) }
    func purge(_ id: String) throws { try base.purge(id) }
    func links(of id: String) throws -> [LinkEntry] { try base.links(of: id) }
    func undoLastAction() throws -> UndoneAction? { try base.undoLastAction() }
    func history(of id: String) throws -> [HistoryVersion] { try base.history(of: id) }
    func nextNeedingReview(after id: String?) throws -> String? { try base.nextNeedingReview(after: id) }
    func tags(startingWith prefix: String) throws -> [String] { try base.tags(startingWith: prefix) }
    func titles(startingWith prefix: String) throws -> [String] { try base.titles(startingWith: prefix) }
    func countMatches(_ query: ListQuery) throws -> Int { try base.countMatches(query) }
    func counts() throws -> StoreCounts { try base.counts() }
    func dataVersion() throws -> Int { try base.dataVersion() }
    func shownVersion() throws -> Int { try base.shownVersion() }
}
