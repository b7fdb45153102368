import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireUI
import TerminalUI
import Testing

/// A clock the test moves by hand.
final class HandClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return time
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        time += seconds
        lock.unlock()
    }
}

/// Notices say something true for a few seconds, then go, with no key pressed.
@Suite struct NoticeTests {
    @Test func aNoticeGoesAfterAFewSecondsWithNoKeyPressed() throws {
        let clock = HandClock()
        let app = try AppHarness(items: AppHarness.entries(3), now: { clock.now })
        app.press(.character("c"))
        #expect(app.waitFor { app.state.notice?.text == "Nothing needs review" })
        #expect(app.text.contains("Nothing needs review"))
        // A poll runs; the notice stays while its time is not up.
        clock.advance(by: AppState.noticeLifetime - 1)
        app.pollAndWait()
        #expect(app.state.notice?.text == "Nothing needs review")
        clock.advance(by: 2)
        #expect(app.waitFor { app.state.notice == nil })
        #expect(app.waitFor { !app.text.contains("Nothing needs review") })
    }

    @Test func aNewerNoticeIsTimedFromWhenItShows() throws {
        let clock = HandClock()
        let app = try AppHarness(items: AppHarness.entries(3), now: { clock.now })
        app.press(.character("c"))
        #expect(app.waitFor { app.state.notice?.text == "Nothing needs review" })
        clock.advance(by: AppState.noticeLifetime - 1)
        // Another notice replaces it: the first one's time must not take the second away.
        app.press(.character("S"), .escape, .character("c"))
        app.runtime.send(.notice(.info("Second")))
        #expect(app.waitFor { app.state.notice?.text == "Second" })
        clock.advance(by: 2)
        app.pollAndWait()
        #expect(app.state.notice?.text == "Second")
        clock.advance(by: AppState.noticeLifetime)
        #expect(app.waitFor { app.state.notice == nil })
    }
}

/// The list's numbers are true: a search that lists only its best matches says more match.
@Suite struct SearchCountTests {
    @Test func aCappedSearchSaysHowManyMatchInAll() throws {
        let app = try AppHarness(items: AppHarness.entries(953))
        app.press(.character("/"))
        app.type("item")
        #expect(app.waitFor { app.state.list.moreMatch })
        // The best 500 are listed at once; every match is counted off the UI queue.
        #expect(
            app.waitFor { app.lines.last?.contains("1/953 (the best 500 shown)") == true }, "\(app.lines.last ?? "")")
        // Fewer matches than the cap: the count is the number of matches.
        app.type(" 95")
        #expect(app.waitFor { app.state.list.total == 5 && !app.state.list.moreMatch })
        #expect(app.lines.last?.contains("1/5 ") == true)
    }
}

/// Tab in the tag prompt completes from the tags the store holds.
@Suite struct TagCompletionTests {
    static func tagged(_ title: String, _ tags: [String]) -> ImportEntry {
        ImportEntry(title: title, tags: tags)
    }

    @Test func tabCompletesATagFromTheStore() throws {
        let app = try AppHarness(items: [
            Self.tagged("a", ["groceries"]), Self.tagged("b", ["garden", "groceries"]), Self.tagged("c", ["work"]),
        ])
        app.press(.character("#"))
        app.type("w")
        app.press(.tab)
        #expect(app.waitFor { app.state.prompt?.field.text == "work" })
        // Several: what they share, and the list (most used first).
        for _ in 0..<4 { app.press(.backspace) }
        app.type("g")
        app.press(.tab)
        #expect(app.waitFor { app.state.notice?.text == "#groceries #garden" })
        #expect(app.state.prompt?.field.text == "g")
        app.type("r")
        app.press(.tab)
        #expect(app.waitFor { app.state.prompt?.field.text == "groceries" })
        app.press(.enter)
        #expect(app.waitFor { app.state.list.query.tag == "groceries" && app.state.list.total == 2 })
        // None: said so, the text kept.
        app.press(.character("#"))
        for _ in 0..<20 { app.press(.backspace) }
        app.type("zz")
        app.press(.tab)
        #expect(app.waitFor { app.state.notice?.text == "No tag starts with “zz”" })
        #expect(app.state.prompt?.field.text == "zz")
    }
}

/// `x` on an occurrence of a recurring task says where the series goes on, as `quire done`
/// does (issue 30): the next occurrence and its due date; the list shows it, marked `↺`.
@Suite struct RecurringDoneNoticeTests {
    @Test func completingAnOccurrenceNamesTheNextOne() throws {
        let app = try AppHarness(items: [
            ImportEntry(
                kind: .task, title: "Water plants", due: Day("2027-01-15"), recur: Recurrence("weekly"))
        ])
        #expect(app.waitFor { app.selectedRow?.contains("↺ Water plants") == true }, "\(app.text)")
        app.press(.character("x"))
        #expect(
            app.waitFor { app.state.notice?.text == "Done: “Water plants” · next: “Water plants” due 2027-01-22" },
            "\(app.state.notice?.text ?? "no notice")")
        #expect(app.waitFor { app.text.contains("01-22") && app.text.contains("[x] ↺ Water plants") }, "\(app.text)")
        // Reopening brings up nothing new, and says nothing of a next one.
        app.press(.character("x"))
        #expect(app.waitFor { app.state.notice?.text.hasPrefix("Reopened: “Water plants”") == true })
        #expect(app.state.notice?.text.contains("next") == false)
    }
}
