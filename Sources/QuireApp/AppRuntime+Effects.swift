import Foundation
import QuireCore
import QuireUI

/// Running the update's effects on the UI queue. Each returns the messages that report how it
/// went, which the loop feeds back into the update before drawing.
extension AppRuntime {
    func perform(_ effect: Effect) -> [Message] {
        switch effect {
        case .load(let request):
            // Paging within the same list is quick: answer now, so the frame never shows
            // unloaded rows. A new query (a search key, a filter) may take longer: it runs off
            // the UI queue, so the key's own frame is drawn at once and the results follow.
            // A refresh after a store change also runs off the UI queue: a sync writing page
            // after page must never make a key wait for a re-read of the list.
            if request.query == lastLoadedQuery, !request.isRefresh { return [load(request)] }
            lastLoadedQuery = request.query
            loadInBackground(request)
            return []
        case .write(let intent):
            return write(intent)
        case .editExternally(let item):
            return [editExternally(item)]
        case .syncNow:
            // The round this asks for is the next to start, even when one is running now.
            syncNowTarget = environment.sync.roundCounts().map { $0.started + 1 }
            return [.notice(environment.sync.syncNow().notice, isError: false)]
        case .findNextNeedingReview(let after):
            do {
                return [.reviewTargetFound(try environment.items.nextNeedingReview(after: after))]
            } catch {
                return [.notice("Cannot read the store: \(error)", isError: true)]
            }
        case .syncStatus(let request):
            return performSyncStatus(request)
        case .loadReview(let id):
            return [loadReview(id)]
        case .resolve(let plan):
            return resolve(plan)
        case .quit:
            return []
        }
    }

    /// Reads the page a request needs: finds the anchor item, then a few screens around it.
    func load(_ request: ListRequest) -> Message {
        let items = environment.items
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
            var window = try items.page(request.query, offset: offset, limit: request.limit, totalMayBeStale: request.isPaging)
            if selection >= window.total, window.total > 0 {
                selection = window.total - 1
                let clamped = request.offset(selection: selection, total: window.total)
                if clamped != offset {
                    offset = clamped
                    window = try items.page(request.query, offset: offset, limit: request.limit, totalMayBeStale: request.isPaging)
                }
            }
            return .listLoaded(ListPage(
                query: request.query, total: window.total, offset: offset, items: window.items,
                selection: selection, anchorFound: anchorFound, refresh: request.isRefresh ? request : nil))
        } catch {
            return .notice("Cannot read the store: \(error)", isError: true)
        }
    }

    /// Loads on the load queue; only the latest request runs, so fast typing never queues up
    /// searches nobody will see.
    func loadInBackground(_ request: ListRequest) {
        let generation = loads.advance()
        activity.begin()
        loadQueue.async { [self] in
            guard loads.isCurrent(generation) else {
                activity.end()
                return
            }
            let message = load(request)
            queue.async { [self] in
                defer { activity.end() }
                guard !isStoppedOnQueue else { return }
                process([message])
            }
        }
    }

    func write(_ intent: WriteIntent) -> [Message] {
        let items = environment.items
        do {
            let id: String
            switch intent {
            case .create(let kind, let title, let body):
                id = try items.create(kind: kind, title: title, body: body).id
            case .edit(let itemID, _, let after):
                id = try items.update(itemID, fields: after).id
            case .setDone(let itemID, _, let done):
                id = try items.update(itemID, fields: [.done: .bool(done)]).id
            case .setPinned(let itemID, _, let pinned):
                id = try items.update(itemID, fields: [.pinned: .bool(pinned)]).id
            case .delete(let itemID, _):
                try items.delete(itemID)
                id = itemID
            case .undo(let entry):
                switch entry {
                case .revert(let itemID, _, let fields):
                    id = try items.update(itemID, fields: fields).id
                case .undelete(let itemID, _):
                    try items.restore(itemID)
                    id = itemID
                case .remove(let itemID, _):
                    try items.delete(itemID)
                    id = itemID
                }
            }
            // Our own write: the poll need not reload for it.
            lastVersion = try? items.dataVersion()
            tellSyncTheStoreChanged()
            return [.written(intent, .success(id)), currentSync()]
        } catch {
            return [.written(intent, .failure(WriteFailure(String(describing: error))))]
        }
    }
}
