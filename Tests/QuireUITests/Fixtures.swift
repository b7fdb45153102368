import Foundation
import QuireApp
import QuireCore
import QuireStore
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
        Item(
            id: id(1), kind: .note, title: "Ideas for the garden", body: "Tomatoes by the wall, herbs in pots.",
            createdAt: created, rev: 1, syncState: .synced),
        Item(
            id: id(2), kind: .task, title: "Buy milk", tags: ["home"], due: Day("2026-11-20"), priority: .high,
            createdAt: created, syncState: .pending),
        Item(
            id: id(3), kind: .note, title: "日本語のメモ", body: "東京で会議。\n新しい計画について話す。", tags: ["仕事"],
            createdAt: created, syncState: .syncing),
        Item(
            id: id(4), kind: .task, title: "Ship 🚀 release notes", done: true, doneAt: created, priority: .medium,
            createdAt: created, rev: 1, syncState: .synced),
        Item(
            id: id(5), kind: .note, title: "Meeting notes: quarterly planning with the whole team and guests",
            body: longBody, tags: ["work", "planning"], createdAt: created, syncState: .needsReview),
        Item(
            id: id(6), kind: .task, title: "Call the plumber", due: Day("2026-12-01"), priority: .low,
            createdAt: created, syncState: .error),
        Item(
            id: id(7), kind: .note, title: "Pinned: packing list", body: "passport\ncharger\nsocks",
            tags: ["travel"], pinned: true, createdAt: created, rev: 1, syncState: .synced),
        Item(
            id: id(8), kind: .task, title: "Café order: crème brûlée", tags: ["food"], createdAt: created,
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

/// Drives the pure update as the runtime does: load and write effects go through the app's own
/// `ItemEffects` over an in-memory source, answered at once.
struct Harness {
    var state: AppState
    let source: InMemoryItemSource
    var effects: [Effect] = []
    /// What `config.toml` holds under `[views]`, as the runtime would read it.
    var savedViews = SavedViewList(configPath: "/home/ada/.config/quire/config.toml")

    init(size: Size, items: [Item] = Fixtures.items) {
        state = AppState(size: size, today: Fixtures.today)
        source = InMemoryItemSource(items: items, environment: .deterministic(start: Fixtures.created))
        run(state.start())
        send(.tick(Fixtures.created))
        send(.syncChanged(SyncSummary(connection: .noRemote, pending: 2)))
    }

    /// Every item the source holds, tombstones too, in the order they were added.
    var items: [Item] {
        get { source.all }
        nonmutating set { source.all = newValue }
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

    /// The page the runner answers a request with (a test holds it back to deliver it late).
    func page(for request: ListRequest) -> ListPage {
        guard case .listLoaded(let page) = ItemEffects(items: source).load(request) else {
            preconditionFailure("the in-memory source cannot fail a read")
        }
        return page
    }

    mutating func run(_ effects: [Effect]) {
        let runner = ItemEffects(items: source)
        for effect in effects {
            self.effects.append(effect)
            switch effect {
            case .load(let request):
                send(runner.load(request))
            case .write(let intent):
                send(runner.write(intent))
            case .undo:
                send(runner.undo())
            case .loadHistory(let id):
                send(runner.history(of: id))
            case .loadLinks(let id):
                send(runner.links(of: id))
            case .readEditedItem(let id):
                send(.editedItemRead(id: id, try? source.item(id)))
            case .countMatches(let query):
                send(.matchesCounted(query, (try? source.countMatches(query)) ?? 0))
            case .loadSavedViews:
                send(.savedViewsLoaded(savedViews))
            case .complete(let kind, let prefix):
                let words =
                    switch kind {
                    case .tag: (try? source.tags(startingWith: prefix)) ?? []
                    case .title: (try? source.titles(startingWith: prefix)) ?? []
                    // The file system is the runtime's; tests answer path completions themselves.
                    case .path: [String]()
                    }
                send(.completionsFound(kind, prefix: prefix, words))
            default:
                break
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
