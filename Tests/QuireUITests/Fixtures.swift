import Foundation
import QuireCore
import QuireUI
import TerminalUI

/// Items with every kind of row the list draws: badges, tasks open and done, due dates,
/// priorities, pins, tags, wide characters and a long body.
enum Fixtures {
    static let today = Day("2026-11-22")!
    static let created = Date(timeIntervalSince1970: 1_795_000_000)

    static func id(_ n: Int) -> String {
        "0193a9d2-\(String(format: "%04x", n))-7000-8000-000000000000"
    }

    static let items: [Item] = [
        Item(id: id(1), kind: .note, title: "Welcome to Quire", body: "Notes and tasks, offline first.",
             createdAt: created, syncState: .synced),
        Item(id: id(2), kind: .task, title: "Buy milk", tags: ["home"], due: Day("2026-11-20"), priority: .high,
             createdAt: created, syncState: .pending),
        Item(id: id(3), kind: .note, title: "日本語のメモ", body: "東京で会議。\n新しい計画について話す。", tags: ["仕事"],
             createdAt: created, syncState: .syncing),
        Item(id: id(4), kind: .task, title: "Ship 🚀 release notes", done: true, doneAt: created, priority: .medium,
             createdAt: created, syncState: .synced),
        Item(id: id(5), kind: .note, title: "Meeting notes: quarterly planning with the whole team and guests",
             body: longBody, tags: ["work", "planning"], createdAt: created, syncState: .needsReview),
        Item(id: id(6), kind: .task, title: "Call the plumber", due: Day("2026-12-01"), priority: .low,
             createdAt: created, syncState: .error),
        Item(id: id(7), kind: .note, title: "Pinned: packing list", body: "passport\ncharger\nsocks",
             tags: ["travel"], pinned: true, createdAt: created, syncState: .synced),
        Item(id: id(8), kind: .task, title: "Café order: crème brûlée", tags: ["food"], createdAt: created,
             syncState: .pending),
    ]

    static let longBody = """
        Agenda for the quarterly planning meeting. We will review what shipped, what slipped, \
        and what we learned along the way.

        1. Review last quarter
        2. Goals for the next one
        3. Open questions from the team
        """
}

/// Drives the pure update with an in-memory list, as the runtime would with the store:
/// load effects are answered at once, writes change the array.
struct Harness {
    var state: AppState
    var items: [Item]
    var effects: [Effect] = []
    var nextID = 100

    init(size: Size, items: [Item] = Fixtures.items) {
        state = AppState(size: size, today: Fixtures.today)
        self.items = items
        run(state.start())
        send(.syncChanged(SyncSummary(connection: .noRemote, pending: 2), line: "2 pending · no remote set"))
    }

    var text: String { state.render().buffer.text }
    var frame: Frame { state.render() }

    mutating func send(_ message: Message) {
        run(state.update(message))
    }

    mutating func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    mutating func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    mutating func run(_ effects: [Effect]) {
        for effect in effects {
            self.effects.append(effect)
            switch effect {
            case .load(let request):
                send(.listLoaded(page(for: request)))
            case .write(let intent):
                send(.written(intent, perform(intent)))
            default:
                break
            }
        }
    }

    func page(for request: ListRequest) -> ListPage {
        let matching = items.filter(request.query.matches).sorted(by: ListQuery.precedes)
        let anchor = request.anchorID.flatMap { id in matching.firstIndex { $0.id == id } }
        let selection = anchor ?? max(0, min(request.index, matching.count - 1))
        let offset = request.offset(selection: selection, total: matching.count)
        let slice = Array(matching.dropFirst(offset).prefix(request.limit))
        return ListPage(query: request.query, total: matching.count, offset: offset, items: slice,
                        selection: selection, anchorFound: anchor != nil, refresh: request.isRefresh ? request : nil)
    }

    mutating func perform(_ intent: WriteIntent) -> Result<String, WriteFailure> {
        func change(_ id: String, _ body: (inout Item) -> Void) -> Result<String, WriteFailure> {
            guard let index = items.firstIndex(where: { $0.id == id }) else { return .failure(WriteFailure("not found")) }
            body(&items[index])
            items[index].syncState = .pending
            return .success(id)
        }
        switch intent {
        case .create(let kind, let title, let body):
            nextID += 1
            let id = Fixtures.id(nextID)
            items.append(Item(id: id, kind: kind, title: title, body: body, createdAt: Fixtures.created))
            return .success(id)
        case .edit(let id, _, let after):
            return change(id) { item in item = (try? item.applying(after, now: Fixtures.created)) ?? item }
        case .setDone(let id, _, let done):
            return change(id) { $0.done = done }
        case .setPinned(let id, _, let pinned):
            return change(id) { $0.pinned = pinned }
        case .delete(let id, _):
            return change(id) { $0.deleted = true }
        case .undo(let entry):
            switch entry {
            case .revert(let id, _, let fields):
                return change(id) { item in item = (try? item.applying(fields, now: Fixtures.created)) ?? item }
            case .undelete(let id, _):
                return change(id) { $0.deleted = false }
            case .remove(let id, _):
                return change(id) { $0.deleted = true }
            }
        }
    }
}

extension Size {
    static let standard = Size(width: 80, height: 24)
    static let large = Size(width: 120, height: 40)
    static let small = Size(width: 40, height: 12)
    static let all: [Size] = [.standard, .large, .small]
}
