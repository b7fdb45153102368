import QuireApp
import QuireCore
import QuireUI
import TerminalUI
import Testing

/// The built-in editor while the item changes elsewhere (another terminal, a sync): it says so,
/// and saving merges, or keeps both and opens the resolve screen.
@Suite struct EditorConcurrentChangeTests {
    static let packing = Fixtures.id(7)

    /// The pinned packing list open in the editor, with a line typed at the end of its body.
    func editing() -> Harness {
        var harness = Harness(size: .standard)
        harness.press(.character("e"))
        harness.press(.enter)
        harness.type("toothbrush")
        return harness
    }

    @Test func theEditorSaysSoAndTheSaveMerges() throws {
        var harness = editing()
        #expect(!harness.text.contains("changed elsewhere"))
        _ = try harness.source.update(Self.packing, fields: [.body: .string("umbrella\npassport\ncharger\nsocks")])
        harness.send(.storeChanged)
        #expect(harness.state.editor?.changedElsewhere == true)
        #expect(harness.text.contains("changed elsewhere since you opened it · saving merges"))
        harness.press(.control("s"))
        #expect(harness.state.screen == .list)
        #expect(harness.items.first { $0.id == Self.packing }?.body == "umbrella\npassport\ncharger\nsocks\ntoothbrush")
        #expect(harness.text.contains("Merged with a change made meanwhile"))
    }

    @Test func aChangeOnlyToFieldsTheEditorDoesNotShowSaysNothing() throws {
        var harness = editing()
        _ = try harness.source.update(Self.packing, fields: [.pinned: .bool(false)])
        harness.send(.storeChanged)
        #expect(harness.state.editor?.changedElsewhere == false)
    }

    @Test func aClashKeepsBothAndOpensTheResolveScreen() throws {
        var harness = editing()
        _ = try harness.source.update(Self.packing, fields: [.body: .string("passport\ncharger\nsocks\nhat")])
        harness.send(.storeChanged)
        harness.press(.control("s"))
        let body = try #require(harness.items.first { $0.id == Self.packing }?.body)
        #expect(body.contains("toothbrush") && body.contains("hat"), "\(body)")
        #expect(harness.effects.contains(.loadReview(id: Self.packing)))
        #expect(harness.text.contains("both kept"))
    }
}
