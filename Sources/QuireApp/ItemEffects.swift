import QuireCore
import QuireUI

/// The list and write effects, answered from an `ItemSource`: what the runtime runs for
/// `.load` and `.write`, kept apart from its queues and timers so the UI tests drive this very
/// code over an in-memory source instead of a copy of it.
public struct ItemEffects: Sendable {
    public let items: any ItemSource

    public init(items: any ItemSource) {
        self.items = items
    }

    /// Reads the page a request needs: finds the anchor item, then a few screens around it.
    public func load(_ request: ListRequest) -> Message {
        do {
            var selection = max(0, request.index)
            var anchorFound = false
            if let anchor = request.anchorID,
                let found = try items.index(of: anchor, in: request.query, near: request.index)
            {
                selection = found
                anchorFound = true
            }
            var offset = request.offset(selection: selection, total: Int.max / 2)
            var window = try items.page(
                request.query, offset: offset, limit: request.limit, totalMayBeStale: request.isPaging)
            if selection >= window.total, window.total > 0 {
                selection = window.total - 1
                let clamped = request.offset(selection: selection, total: window.total)
                if clamped != offset {
                    offset = clamped
                    window = try items.page(
                        request.query, offset: offset, limit: request.limit, totalMayBeStale: request.isPaging)
                }
            }
            return .listLoaded(
                ListPage(
                    query: request.query, total: window.total, offset: offset, items: window.items,
                    shortIDs: window.shortIDs, selection: selection, anchorFound: anchorFound,
                    refresh: request.isRefresh ? request : nil, moreMatch: window.moreMatch))
        } catch {
            return .notice(.error("Cannot read the store: \(error)"))
        }
    }

    /// Reads an item's links and backlinks for the link picker; none when the store cannot say.
    public func links(of id: String) -> Message {
        .linksLoaded(id: id, (try? items.links(of: id)) ?? [])
    }

    /// Reads an item's versions for the history view.
    public func history(of id: String) -> Message {
        do {
            return .historyLoaded(id: id, .success(try items.history(of: id)))
        } catch {
            return .historyLoaded(id: id, .failure(WriteFailure("Cannot read the history: \(error)")))
        }
    }

    /// Takes back the newest local action (`u`).
    public func undo() -> Message {
        do {
            return .undone(.success(try items.undoLastAction()))
        } catch {
            return .undone(.failure(WriteFailure(String(describing: error))))
        }
    }

    /// Writes what the person did; the answer carries the id written, or why it failed.
    public func write(_ intent: WriteIntent) -> Message {
        do {
            let id: String
            switch intent {
            case .create(let kind, let title, let body, let details):
                id = try items.create(kind: kind, title: title, body: body, details: details).id
            case .edit(let itemID, let before, let after):
                let saved = try items.save(itemID, from: before, to: after)
                return .written(intent, .success(WriteDone(id: saved.item.id, outcome: saved.outcome)))
            case .setDone(let itemID, _, let done):
                let updated = try items.update(itemID, fields: [.done: .bool(done)])
                // A completed occurrence brought up its series' next one (or found it there),
                // as `quire done` says.
                guard done, let next = updated.nextOccurrence(now: updated.updatedAt),
                    let stored = try items.item(next.id), !stored.deleted, !stored.done
                else {
                    id = updated.id
                    break
                }
                return .written(intent, .success(WriteDone(id: updated.id, next: stored)))
            case .setPinned(let itemID, _, let pinned):
                id = try items.update(itemID, fields: [.pinned: .bool(pinned)]).id
            case .delete(let itemID, _):
                try items.delete(itemID)
                id = itemID
            case .restore(let itemID, _):
                try items.restore(itemID)
                id = itemID
            case .purge(let itemID, _):
                try items.purge(itemID)
                id = itemID
            case .restoreVersion(let itemID, _, let before, let fields, _):
                let saved = try items.save(itemID, from: before, to: fields)
                return .written(intent, .success(WriteDone(id: saved.item.id, outcome: saved.outcome)))
            }
            return .written(intent, .success(WriteDone(id: id)))
        } catch {
            return .written(intent, .failure(WriteFailure(String(describing: error))))
        }
    }
}
