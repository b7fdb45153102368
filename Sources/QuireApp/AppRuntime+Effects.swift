import Foundation
import QuireCore
import QuireSync
import QuireUI
import TerminalUI

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
        case .countMatches(let query):
            countInBackground(query)
            return []
        case .loadHistory(let id):
            return [ItemEffects(items: environment.items).history(of: id)]
        case .loadLinks(let id):
            return [ItemEffects(items: environment.items).links(of: id)]
        case .readEditedItem(let id):
            return [.editedItemRead(id: id, try? environment.items.item(id))]
        case .undo:
            let answer = ItemEffects(items: environment.items).undo()
            guard case .undone(.success(let undone?)) = answer, undone.plan.wroteAChange else { return [answer] }
            return [answer, ownWriteNoted()]
        case .editExternally(let item):
            return [editExternally(item)]
        case .syncNow:
            return [.notice(syncNowNotice(environment.sync.syncNow()))]
        case .attachments(let request):
            return performAttachment(request)
        case .loadSavedViews:
            return [.savedViewsLoaded(environment.savedViews())]
        case .complete(let kind, let prefix):
            // On the UI queue, answered before the next key: a Tab typed ahead of more keys
            // completes where it was typed.
            do {
                let words =
                    switch kind {
                    case .tag: try environment.items.tags(startingWith: prefix)
                    case .title: try environment.items.titles(startingWith: prefix)
                    case .path: paths(completing: prefix)
                    }
                return [.completionsFound(kind, prefix: prefix, words)]
            } catch {
                return [.notice(.error("Cannot read the \(kind == .tag ? "tags" : "titles"): \(error)"))]
            }
        case .findNextNeedingReview(let after):
            do {
                return [.reviewTargetFound(try environment.items.nextNeedingReview(after: after))]
            } catch {
                return [.notice(.error("Cannot read the store: \(error)"))]
            }
        case .syncStatus(let request):
            return performSyncStatus(request)
        case .unlock(let request):
            unlockInBackground(request)
            return []
        case .loadReview(let id):
            return [loadReview(id)]
        case .resolve(let plan):
            return resolve(plan)
        case .suspendToShell:
            keepDraftNow()
            backend.suspendToShell()
            forgetScreen()
            return [.resized(backend.refreshSize())]
        case .quit:
            return []
        }
    }

    /// Reads the page a request needs (see `ItemEffects.load`).
    func load(_ request: ListRequest) -> Message {
        ItemEffects(items: environment.items).load(request)
    }

    /// Loads on the load lane once the frame is drawn; only the latest request runs, so fast
    /// typing never queues up searches nobody will see.
    func loadInBackground(_ request: ListRequest) {
        let generation = loads.advance()
        activity.begin()
        inBackground(on: Self.loadLane) { [self] in
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

    /// Unlocks off the UI queue (a server request and a key derivation); the answer comes back
    /// as a message, and keys typed meanwhile wait in the prompt.
    func unlockInBackground(_ request: UnlockRequest) {
        let sync = environment.sync
        activity.begin()
        Task.detached { [self] in
            let outcome = await sync.unlock(request)
            queue.async { [self] in
                defer { activity.end() }
                guard !isStoppedOnQueue else { return }
                process([.unlockFinished(outcome)])
            }
        }
    }

    /// Counts every match of a capped search on the count lane once the frame is drawn; a
    /// newer count makes an older one that has not started yet moot.
    func countInBackground(_ query: ListQuery) {
        let generation = counts.advance()
        activity.begin()
        inBackground(on: Self.countLane) { [self] in
            guard counts.isCurrent(generation), let count = try? environment.items.countMatches(query) else {
                activity.end()
                return
            }
            queue.async { [self] in
                defer { activity.end() }
                guard !isStoppedOnQueue else { return }
                process([.matchesCounted(query, count)])
            }
        }
    }

    /// Runs `work` on `lane` after the frame being processed is drawn (`startBackgroundWork`).
    func inBackground(on lane: BackgroundThread, _ work: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        backgroundStarts.append { lane.async(work) }
    }

    func write(_ intent: WriteIntent) -> [Message] {
        let answer = ItemEffects(items: environment.items).write(intent)
        guard case .written(_, .success) = answer else { return [answer] }
        return [answer, ownWriteNoted()]
    }

    /// The status bar's notice for "sync now": a started round's notice is the one the round's
    /// end takes away (`Notice.Kind.syncRound`).
    private func syncNowNotice(_ answer: SyncNowAnswer) -> AppState.Notice {
        answer == .started ? .syncStarted : .info(answer.notice)
    }
}
