import Foundation
import QuireCore
import QuireUI
import TerminalUI
import Testing

/// Three versions of a task with every kind of conflict the resolve screen shows.
enum ResolveFixtures {
    static let id = Fixtures.id(40)

    static func item(
        _ title: String, body: String, priority: Priority = .none, deleted: Bool = false,
        rev: Int = 1
    ) -> Item {
        Item(
            id: id, kind: .task, title: title, body: body, priority: priority, createdAt: Fixtures.created,
            deleted: deleted, rev: rev, syncState: .needsReview)
    }

    static let baseBody = "milk\nbread\ncheese\neggs\nflour\n"
    /// Title and priority both changed differently; the body has two conflicting hunks
    /// (bread and flour) with clean lines between them, and the tail of the list.
    static let versions = ReviewVersions(
        itemID: id,
        base: item("Groceries", body: baseBody),
        local: item(
            "Groceries for Sunday", body: "milk\nrye bread\ncheese\neggs\nflour (whole wheat)\n",
            priority: .low),
        remote: item("Groceries 買い物", body: "milk\n食パン\ncheese\neggs\nflour x2\n", priority: .high, rev: 2))

    /// Edited here (the title), deleted on the server.
    static let deletedRemotely = ReviewVersions(
        itemID: id, base: item("Plan", body: "a\n"), local: item("Plan the trip", body: "a\n"),
        remote: item("Plan", body: "a\n", deleted: true, rev: 2))

    /// Deleted here, edited on the server (the body).
    static let deletedLocally = ReviewVersions(
        itemID: id, base: item("Plan", body: "a\n"), local: item("Plan", body: "a\n", deleted: true),
        remote: item("Plan", body: "a\nb\n", rev: 2))
}

@Suite struct ResolveStateTests {
    typealias Row = ResolveState.Row

    @Test func rowsAreFieldsThenBodyHunks() {
        let state = ResolveState(ResolveFixtures.versions)
        #expect(state.rows == [.field(.title), .field(.priority), .hunk(0), .hunk(1)])
        #expect(state.hunks.map(\.local) == [["rye bread\n"], ["flour (whole wheat)\n"]])
        #expect(state.resolvedItem == nil)
        #expect(state.plan == nil)
    }

    @Test func choicesPerFieldAndHunkMakeExactlyTheChosenItem() throws {
        var state = ResolveState(ResolveFixtures.versions)
        let chose1 = state.choose(.local, for: .field(.title))
        #expect(chose1)
        let chose2 = state.choose(.remote, for: .field(.priority))
        #expect(chose2)
        let chose3 = state.choose(.both, for: .hunk(0))
        #expect(chose3)
        let chose4 = state.choose(.remote, for: .hunk(1))
        #expect(chose4)
        let item = try #require(state.resolvedItem)
        #expect(item.title == "Groceries for Sunday")
        #expect(item.priority == .high)
        #expect(item.body == "milk\nrye bread\n食パン\ncheese\neggs\nflour x2\n")
        #expect(item.deleted == false)

        // The ledger writes the body with the local title; the remote priority follows as an edit.
        let plan = try #require(state.plan)
        #expect(plan.step == .body("milk\nrye bread\n食パン\ncheese\neggs\nflour x2\n"))
        #expect(plan.fields == [.priority: .string("high")])
        #expect(plan.expected == item)
    }

    @Test func allRemoteIsTheLedgersOwnRemoteResolution() throws {
        var state = ResolveState(ResolveFixtures.versions)
        state.chooseAll(.remote)
        let item = try #require(state.resolvedItem)
        #expect(item.title == "Groceries 買い物")
        #expect(item.body == "milk\n食パン\ncheese\neggs\nflour x2\n")
        #expect(try #require(state.plan).step == .keep(.remote))
        #expect(try #require(state.plan).fields.isEmpty)
    }

    @Test func aChoiceOnOneHunkLeavesTheOthersAlone() {
        var state = ResolveState(ResolveFixtures.versions)
        state.choose(.remote, for: .hunk(1))
        #expect(state.choices[.hunk(0)] == nil)
        #expect(state.choices[.hunk(1)] == .remote)
        let body = state.mergedBody
        #expect(body.contains("<<<<<<< local\nrye bread\n||||||| base\nbread\n=======\n食パン\n>>>>>>> remote\n"))
        #expect(body.hasSuffix("cheese\neggs\nflour x2\n"))
        #expect(state.unsettled == [.field(.title), .field(.priority), .hunk(0)])
        #expect(state.resolvedItem == nil)
    }

    @Test func bothIsRefusedForScalarFields() {
        var state = ResolveState(ResolveFixtures.versions)
        let chose5 = state.choose(.both, for: .field(.title))
        #expect(!chose5)
        #expect(state.choices.isEmpty)
        state.chooseAll(.both)
        #expect(state.choices == [.hunk(0): .both, .hunk(1): .both])
    }

    @Test func anEditedBodySettlesEveryHunkAndAChoiceDropsIt() throws {
        var state = ResolveState(ResolveFixtures.versions)
        state.setEditedBody("milk\nbread of any kind\n")
        state.chooseAll(.local)
        // chooseAll(.local) replaces the edit with the local hunks.
        #expect(state.editedBody == nil)
        state.setEditedBody("milk\nbread of any kind\n")
        #expect(state.unsettled.isEmpty)
        #expect(try #require(state.resolvedItem).body == "milk\nbread of any kind\n")
        #expect(try #require(state.plan).step == .body("milk\nbread of any kind\n"))
        state.choose(.remote, for: .hunk(0))
        #expect(state.editedBody == nil)
        #expect(state.unsettled == [.hunk(1)])
    }

    @Test func editAgainstARemoteDeleteRestoresOrAcceptsTheDelete() throws {
        var state = ResolveState(ResolveFixtures.deletedRemotely)
        #expect(state.rows == [.deletion])
        state.choose(.local, for: .deletion)
        let restored = try #require(state.resolvedItem)
        #expect(!restored.deleted)
        #expect(restored.title == "Plan the trip")
        #expect(try #require(state.plan).step == .keep(.local))

        state.choose(.remote, for: .deletion)
        #expect(try #require(state.resolvedItem).deleted)
        #expect(try #require(state.plan).step == .keep(.remote))
    }

    @Test func aLocalDeleteAgainstARemoteEditRestoresOrAcceptsTheDelete() throws {
        var state = ResolveState(ResolveFixtures.deletedLocally)
        #expect(state.rows == [.deletion])
        state.choose(.remote, for: .deletion)
        let restored = try #require(state.resolvedItem)
        #expect(!restored.deleted)
        #expect(restored.body == "a\nb\n")
        #expect(try #require(state.plan).step == .keep(.remote))

        state.choose(.local, for: .deletion)
        #expect(try #require(state.resolvedItem).deleted)
        #expect(try #require(state.plan).step == .keep(.local))
    }
}

/// The resolve screen driven by keys through the pure update.
@Suite struct ResolveKeyTests {
    func opened(_ versions: ReviewVersions = ResolveFixtures.versions, size: Size = .standard) -> Harness {
        var harness = Harness(size: size)
        harness.press(.character("c"))
        #expect(harness.effects.last == .findNextNeedingReview(after: harness.state.list.selectedID))
        harness.send(.reviewTargetFound(versions.itemID))
        #expect(harness.effects.last == .loadReview(id: versions.itemID))
        harness.send(.reviewLoaded(id: versions.itemID, versions))
        return harness
    }

    @Test func nothingNeedingReviewKeepsTheNotice() {
        var harness = Harness(size: .standard)
        harness.press(.character("c"))
        harness.send(.reviewTargetFound(nil))
        #expect(harness.state.screen == .list)
        #expect(harness.state.notice?.text == "Nothing needs review")
    }

    @Test func acceptWithAnUnchosenConflictIsRefused() {
        var harness = opened()
        harness.press(.character("l"), .character("r"))
        let before = harness.effects.count
        harness.press(.enter)
        #expect(harness.effects.count == before)
        #expect(harness.state.notice?.text == "2 conflicts still need a choice (l local, r remote, b both, e edit)")
        #expect(harness.state.resolve?.selection == 2)
        #expect(harness.state.resolve?.saving == false)
    }

    /// Fields left unchosen take only a side: the notice offers no key they refuse.
    @Test func acceptWithOnlyFieldsUnchosenOffersTheirKeys() {
        var harness = opened()
        harness.press(.down, .down, .character("b"), .character("b"))
        harness.press(.enter)
        #expect(harness.state.notice?.text == "2 conflicts still need a choice (l local, r remote)")
        #expect(harness.state.resolve?.selection == 0)
    }

    @Test func keysChooseAndAcceptWritesThePlan() throws {
        var harness = opened()
        // Title local, priority remote, first hunk both, second hunk remote; each choice moves on.
        harness.press(.character("l"), .character("r"), .character("b"), .character("r"))
        let resolve = try #require(harness.state.resolve)
        #expect(
            resolve.choices == [.field(.title): .local, .field(.priority): .remote, .hunk(0): .both, .hunk(1): .remote])
        harness.press(.control("s"))
        guard case .resolve(let plan)? = harness.effects.last else {
            Issue.record("accept wrote nothing")
            return
        }
        #expect(plan.expected.body == "milk\nrye bread\n食パン\ncheese\neggs\nflour x2\n")
        #expect(harness.state.resolve?.saving == true)
        harness.send(.resolveFinished(id: ResolveFixtures.id, error: nil))
        #expect(harness.state.screen == .list)
        #expect(harness.state.notice?.text == "Resolved")
    }

    @Test func bothOnAFieldSaysSoAndChangesNothing() {
        var harness = opened()
        harness.press(.character("b"))
        #expect(harness.state.resolve?.choices.isEmpty == true)
        #expect(harness.state.notice?.text.contains("body hunks") == true)
    }

    @Test func escapeGoesBackWithoutWriting() {
        var harness = opened()
        harness.press(.escape)
        #expect(harness.state.screen == .list, "nothing chosen: nothing to ask about")
        harness = opened()
        harness.press(.character("L"))
        let before = harness.effects.count
        // Choices made are not dropped without asking: `n` keeps them, `y` leaves.
        harness.press(.escape)
        #expect(harness.state.question == .dropResolveChoices)
        #expect(harness.text.contains("Leave and drop the choices made here?"))
        harness.press(.character("n"))
        #expect(harness.state.question == nil)
        #expect(harness.state.resolve?.choices.isEmpty == false)
        harness.press(.escape, .character("y"))
        #expect(harness.state.screen == .list)
        #expect(harness.effects.count == before)
    }

    @Test func theMergedBodyIsEditedInTheBuiltInEditor() throws {
        var harness = opened()
        // `e` on a hunk row opens the body (on the title row it opens the title).
        harness.press(.character("j"), .character("j"), .character("e"))
        #expect(harness.state.keyContext == .editor)
        // Unsettled hunks open as markers, which must go before the edit is kept.
        harness.press(.control("s"))
        #expect(harness.state.notice?.isError == true)
        #expect(harness.state.resolve?.bodyEditor != nil)
        harness.press(.escape)
        #expect(harness.state.keyContext == .resolve)

        harness.press(.character("r"), .character("r"), .character("e"))
        for _ in 0..<40 { harness.press(.backspace) }
        for _ in 0..<40 { harness.press(.delete) }
        harness.type("all of it")
        harness.press(.control("s"))
        let resolve = try #require(harness.state.resolve)
        #expect(resolve.bodyEditor == nil)
        #expect(resolve.editedBody == "all of it")
        #expect(resolve.unsettled == [.field(.title), .field(.priority)])
    }

    /// The merged body takes the item editor's keys: rows, row ends, pages.
    @Test func theMergedBodyEditorMovesLikeTheItemEditor() throws {
        var harness = opened()
        harness.press(.character("j"), .character("j"), .character("e"))
        harness.press(.down, .end)
        harness.type("!")
        var lines = try #require(harness.state.resolve?.bodyEditor?.text).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].hasSuffix("!"))
        harness.press(.pageDown, .home)
        harness.type("^")
        let area = try #require(harness.state.resolve?.bodyEditor)
        lines = area.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(area.line > 1)
        #expect(lines[area.line].hasPrefix("^"))
        #expect(harness.frame.cursor != nil)
    }

    @Test func aStoreChangeReadsTheVersionsAgainAndKeepsChoicesThatStillApply() {
        var harness = opened()
        harness.press(.character("l"), .character("r"))
        harness.send(.storeChanged)
        #expect(harness.effects.last == .loadReview(id: ResolveFixtures.id))
        // Same conflicts, a newer remote title: the choices stay.
        var newer = ResolveFixtures.versions
        newer.remote.title = "Groceries (shared)"
        harness.send(.reviewLoaded(id: ResolveFixtures.id, newer))
        #expect(harness.state.resolve?.versions == newer)
        #expect(harness.state.resolve?.choices == [.field(.title): .local, .field(.priority): .remote])
        #expect(harness.state.resolve?.selection == 2)
        // The priority no longer conflicts: the rows changed, so the person chooses again.
        var fewer = newer
        fewer.remote.priority = fewer.local.priority
        harness.send(.reviewLoaded(id: ResolveFixtures.id, fewer))
        #expect(harness.state.resolve?.rows == [.field(.title), .hunk(0), .hunk(1)])
        #expect(harness.state.resolve?.choices.isEmpty == true)
        #expect(harness.state.notice?.text == "The item changed meanwhile: choose again")
        // Resolved elsewhere: back to the list.
        harness.send(.reviewLoaded(id: ResolveFixtures.id, nil))
        #expect(harness.state.screen == .list)
        #expect(harness.state.notice?.text == "That item no longer needs review")
    }

    @Test func pageDownScrollsThroughAHunkTallerThanTheScreen() {
        let long = (1...30).map { "line \($0)\n" }.joined()
        let versions = ReviewVersions(
            itemID: ResolveFixtures.id, base: ResolveFixtures.item("Long", body: "start\n"),
            local: ResolveFixtures.item("Long", body: "start\n" + long),
            remote: ResolveFixtures.item("Long", body: "start\nsomething else\n", rev: 2))
        var harness = opened(versions)
        #expect(harness.text.contains("line 1\n") || harness.text.contains("line 1 "))
        #expect(!harness.text.contains("line 30"))
        harness.press(.pageDown)
        #expect(harness.state.resolve?.scrollOffset ?? 0 > 0)
        #expect(harness.text.contains("line 30"))
        harness.press(.pageDown, .pageDown)
        #expect(harness.text.contains("something else"))
        harness.press(.pageUp, .pageUp, .pageUp)
        #expect(harness.state.resolve?.scrollOffset == 0)
        #expect(!harness.text.contains("line 30"))
    }

    @Test func vSwitchesBetweenSideBySideAndUnified() throws {
        func columns(_ harness: Harness) -> Bool {
            harness.state.render().buffer.lines.contains {
                $0.contains("base") && $0.contains("local") && $0.contains("remote")
            }
        }
        var harness = opened(size: .large)
        #expect(columns(harness))
        harness.press(.character("v"))
        #expect(harness.state.resolve?.prefersUnified == true)
        #expect(!columns(harness))
        harness.press(.character("v"))
        #expect(columns(harness))
        // Too narrow for columns: unified either way, and the notice says why.
        var narrow = opened(size: .standard)
        #expect(!columns(narrow))
        narrow.press(.character("v"), .character("v"))
        #expect(narrow.state.notice?.text == "Side by side needs 100 columns")
    }

    // MARK: - Writing a value, previewing, reading what was edited

    /// A title in conflict can be written by hand: `e` on its row, Enter keeps it, and the
    /// saved item carries exactly that title.
    @Test func aTitleInConflictIsWrittenByHand() throws {
        var harness = opened()
        harness.press(.character("e"))
        #expect(harness.state.keyContext == .editor)
        #expect(harness.text.contains("Your title: Groceries for Sunday"))
        for _ in 0..<"for Sunday".count { harness.press(.backspace) }
        harness.type("(both lists)")
        harness.press(.enter)
        let resolve = try #require(harness.state.resolve)
        #expect(resolve.fieldEditor == nil)
        #expect(resolve.editedFields[.title] == "Groceries (both lists)")
        #expect(resolve.isSettled(.field(.title)))
        #expect(resolve.selectedRow == .field(.priority))
        // The row shows the value written, with its ✓, as a chosen side is shown.
        #expect(harness.text.contains("title · ✓ typed “Groceries (both lists)”"), "\(harness.text)")
        harness.press(.character("r"), .character("l"), .character("r"), .enter)
        guard case .resolve(let plan)? = harness.effects.last else {
            Issue.record("accepting did not write")
            return
        }
        #expect(plan.expected.title == "Groceries (both lists)")
        #expect(plan.expected.priority == .high)
        #expect(plan.expected.body == "milk\nrye bread\ncheese\neggs\nflour x2\n")
    }

    /// A value the item cannot hold is refused with the reason, and the editor stays open
    /// with the text; Esc drops it and changes nothing.
    @Test func anInvalidValueIsRefusedAndKept() throws {
        var harness = opened()
        harness.press(.character("e"))
        for _ in 0..<40 { harness.press(.backspace) }
        harness.press(.enter)
        #expect(harness.state.notice?.isError == true)
        #expect(harness.state.resolve?.fieldEditor != nil)
        harness.type("x")
        harness.press(.escape)
        let resolve = try #require(harness.state.resolve)
        #expect(resolve.fieldEditor == nil)
        #expect(resolve.editedFields.isEmpty)
        #expect(!resolve.isSettled(.field(.title)))
    }

    /// Choosing a side for a row drops the value written for it.
    @Test func choosingASideReplacesAWrittenValue() {
        var state = ResolveState(ResolveFixtures.versions)
        #expect(state.setEditedField(.title, "Mine") == nil)
        state.choose(.remote, for: .field(.title))
        #expect(state.editedFields[.title] == nil)
        #expect(state.previewItem.title == "Groceries 買い物")
        // Fields not in conflict cannot be written here.
        #expect(state.setEditedField(.tags, "a b") != nil)
    }

    /// `p` shows the whole item as chosen so far (unsettled hunks as markers), and the body
    /// that accepting would save once everything is chosen.
    @Test func thePreviewShowsTheWholeResult() throws {
        var harness = opened()
        harness.press(.character("p"))
        #expect(harness.state.resolve?.showsPreview == true)
        var text = harness.text
        #expect(text.contains("4 still to choose"))
        #expect(text.contains("<<<<<<< local"))
        #expect(text.contains("Groceries for Sunday"))
        harness.press(.character("p"))
        harness.press(.character("R"), .character("j"), .character("j"), .character("b"), .character("p"))
        text = harness.text
        #expect(!text.contains("<<<<<<<"))
        #expect(text.contains("Groceries 買い物"))
        for line in ["rye bread", "食パン", "flour x2", "cheese"] { #expect(text.contains(line)) }
        #expect(text.contains("Preview · Enter accepts"))
        // Esc leaves the preview, not the screen.
        harness.press(.escape)
        #expect(harness.state.resolve?.showsPreview == false)
        #expect(harness.state.keyContext == .resolve)
    }

    /// After the body is edited, each hunk shows the text the person wrote in its place.
    @Test func anEditedHunkShowsTheEditedText() throws {
        var state = ResolveState(ResolveFixtures.versions)
        state.setEditedBody("milk\nsourdough\ncheese\neggs\nflour (whole wheat) x2\n")
        #expect(state.editedHunkLines == [["sourdough\n"], ["flour (whole wheat) x2\n"]])
        var harness = opened()
        harness.press(.character("j"), .character("j"), .character("e"))
        for _ in 0..<200 { harness.press(.delete) }
        harness.type("milk\nsourdough\ncheese\neggs\nflour (whole wheat) x2\n")
        harness.press(.control("s"))
        let text = harness.text
        #expect(text.contains("your edit here:"))
        #expect(text.contains("sourdough"))
        // An edit that rewrote the lines around a hunk shows the edited body whole.
        state.setEditedBody("everything new\n")
        #expect(state.editedHunkLines == [nil, nil])
    }

    /// An edit against a delete shows the edited text that a delete would throw away.
    @Test func anEditAgainstADeleteShowsTheEditedText() {
        let versions = ReviewVersions(
            itemID: ResolveFixtures.id, base: ResolveFixtures.item("Plan", body: "a\n"),
            local: ResolveFixtures.item("Plan", body: "a\n", deleted: true),
            remote: ResolveFixtures.item("Plan", body: "a\nbook the ferry\n", rev: 2))
        let harness = opened(versions)
        #expect(harness.text.contains("book the ferry"))
    }

    /// A last line without a line break is marked, so the two sides of a hunk that differ
    /// only there do not look the same.
    @Test func aMissingFinalNewlineIsMarked() {
        let versions = ReviewVersions(
            itemID: ResolveFixtures.id, base: ResolveFixtures.item("N", body: "a\nb\n"),
            local: ResolveFixtures.item("N", body: "a\nb"),
            remote: ResolveFixtures.item("N", body: "a\nb\nc\n", rev: 2))
        let harness = opened(versions)
        #expect(harness.state.resolve?.hunks.isEmpty == false)
        #expect(harness.text.contains("no newline at end"))
    }
}
