import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// The resolve screen as text at 80x24, 120x40 and 40x12.
@Suite struct ResolveSnapshotTests {
    func opened(_ versions: ReviewVersions, size: Size) -> Harness {
        var harness = Harness(size: size)
        harness.send(.reviewTargetFound(versions.itemID))
        harness.send(.reviewLoaded(id: versions.itemID, versions))
        return harness
    }

    /// Title chosen local, the selection on the first body hunk (CJK on the remote side).
    @Test(arguments: Size.all)
    func fieldsAndHunks(size: Size) {
        var harness = opened(ResolveFixtures.versions, size: size)
        harness.press(.character("l"), .character("j"))
        assertSnapshot(harness.text, named: "resolve-\(size)")
    }

    /// Every conflict chosen; the status bar says Enter accepts.
    @Test(arguments: Size.all)
    func allChosen(size: Size) {
        var harness = opened(ResolveFixtures.versions, size: size)
        harness.press(.character("R"), .character("j"), .character("j"), .character("b"))
        #expect(harness.state.resolve?.unsettled.isEmpty == true)
        assertSnapshot(harness.text, named: "resolve-chosen-\(size)")
    }

    @Test(arguments: Size.all)
    func editAgainstDelete(size: Size) {
        let harness = opened(ResolveFixtures.deletedRemotely, size: size)
        assertSnapshot(harness.text, named: "resolve-delete-\(size)")
    }

    /// A long paragraph changed on both sides wraps in its column instead of being cut.
    @Test(arguments: Size.all)
    func longLinesWrap(size: Size) {
        let paragraph =
            "The plan is to leave early on Saturday, drive along the coast road, stop for lunch in the harbour town"
        let versions = ReviewVersions(
            itemID: ResolveFixtures.id,
            base: ResolveFixtures.item("Trip", body: paragraph + ".\n"),
            local: ResolveFixtures.item("Trip", body: paragraph + " and be at the cabin before dark.\n"),
            remote: ResolveFixtures.item("Trip", body: paragraph + " and take the ferry across after three.\n", rev: 2))
        let harness = opened(versions, size: size)
        assertSnapshot(harness.text, named: "resolve-long-\(size)")
        // Every word of both sides is on the screen (at the smallest size, the first side at least).
        let words = harness.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "│" })
        #expect(words.contains("cabin") || size == .small)
        #expect(words.contains("ferry") || size == .small)
    }

    @Test(arguments: Size.all)
    func mergedBodyEditor(size: Size) {
        var harness = opened(ResolveFixtures.versions, size: size)
        harness.press(.character("j"), .character("j"), .character("l"), .character("e"))
        assertSnapshot(harness.text, named: "resolve-editor-\(size)")
    }
}

@Suite struct ResolveLayoutTests {
    /// From the smallest terminal up, every row keeps to the width and the status bar stays last.
    @Test func everySizeKeepsToItsRows() {
        for width in [20, 33, 40, 59, 60, 80, 99, 100, 140] {
            for height in [6, 9, 10, 12, 24] {
                let size = Size(width: width, height: height)
                var harness = Harness(size: size)
                harness.send(.reviewTargetFound(ResolveFixtures.id))
                harness.send(.reviewLoaded(id: ResolveFixtures.id, ResolveFixtures.versions))
                for key: Key in [.character("j"), .character("j"), .character("b"), .character("j"), .character("e")] {
                    harness.press(key)
                    let lines = harness.state.render().buffer.lines
                    #expect(lines.count == height, "\(size)")
                    #expect(lines.allSatisfy { $0.displayWidth <= width }, "\(size)")
                    #expect(lines.last?.contains("pending") == true || width < 30, "\(size): \(lines.last ?? "")")
                }
            }
        }
    }
}
