import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// `v`: the filters named in `config.toml`'s `[views]`, to switch between.
@Suite struct SavedViewsTests {
    static let views = SavedViewList(
        views: [
            SavedView(name: "errands", filter: "+home status:open"),
            SavedView(name: "soon", filter: "due.before:eow kind:task"),
        ], configPath: "/home/ada/.config/quire/config.toml")

    func opened(size: Size = .standard, views: SavedViewList = SavedViewsTests.views) -> Harness {
        var harness = Harness(size: size)
        harness.savedViews = views
        harness.press(.character("v"))
        return harness
    }

    @Test func vListsEveryItemThenTheViewsInTheConfigsOrder() throws {
        let harness = opened()
        let views = try #require(harness.state.views)
        #expect(views.rowCount == 3 && views.selected == 0)
        #expect(harness.effects.last == .loadSavedViews)
        let text = harness.text
        #expect(text.contains("Saved views"))
        let rows = text.split(separator: "\n")
        let all = try #require(rows.firstIndex { $0.contains("every item, no filter") })
        let errands = try #require(rows.firstIndex { $0.contains("errands") && $0.contains("+home status:open") })
        let soon = try #require(rows.firstIndex { $0.contains("soon") && $0.contains("due.before:eow kind:task") })
        #expect(all < errands && errands < soon)
    }

    @Test func enterShowsTheListThroughTheViewAndTheBarNamesIt() {
        var harness = opened()
        harness.press(.character("j"), .enter)
        #expect(harness.state.screen == .list)
        #expect(harness.state.list.query.viewName == "errands")
        #expect(harness.state.list.query.search == "+home status:open")
        // Only "Buy milk" is an open item tagged home.
        #expect(harness.state.list.items.map(\.title) == ["Buy milk"])
        #expect(harness.text.contains("view errands"))
        #expect(!harness.text.contains("/+home"))
    }

    @Test func reopeningSelectsTheViewShownAndAllClearsIt() {
        var harness = opened()
        harness.press(.character("G"), .enter)
        #expect(harness.state.list.query.viewName == "soon")
        harness.press(.character("v"))
        #expect(harness.state.views?.selected == 2)
        harness.press(.character("g"), .enter)
        #expect(harness.state.list.query == ListQuery())
        #expect(harness.state.list.total == Fixtures.items.count)
    }

    @Test func escapeGoesBackToTheListAsItWas() {
        var harness = Harness(size: .standard)
        harness.savedViews = SavedViewsTests.views
        harness.press(.character("/"))
        harness.type("milk")
        harness.press(.enter)
        let before = harness.state.list.query
        harness.press(.character("v"), .character("j"), .escape)
        #expect(harness.state.screen == .list)
        #expect(harness.state.list.query == before)
    }

    @Test func editingTheViewsFilterAtTheSearchPromptIsNoLongerTheView() {
        var harness = opened()
        harness.press(.character("j"), .enter, .character("/"))
        harness.type(" milk")
        #expect(harness.state.list.query.viewName == nil)
        #expect(harness.state.list.query.search == "+home status:open milk")
        harness.press(.escape, .escape)
        #expect(harness.state.list.query == ListQuery())
    }

    @Test func withoutViewsItSaysWhereToAddOne() {
        let harness = opened(views: SavedViewList(configPath: "/home/ada/.config/quire/config.toml"))
        let text = harness.text
        #expect(text.contains("No saved views yet"))
        #expect(text.contains("[views]"))
        #expect(text.contains("work = \"project:work status:open\""))
    }

    @Test func aConfigThatDoesNotReadIsSaidAndNothingIsChosen() {
        var harness = opened(
            views: SavedViewList(problem: "config.toml: line 3 holds the view 'x', which does not read: bad"))
        #expect(harness.text.contains("line 3 holds the view 'x'"))
        harness.press(.enter)
        #expect(harness.state.views != nil)
        #expect(harness.state.list.query == ListQuery())
    }

    @Test(arguments: Size.all)
    func snapshot(size: Size) {
        var harness = opened(size: size)
        harness.press(.character("j"))
        assertSnapshot(harness.text, named: "saved-views-\(size)")
    }
}
