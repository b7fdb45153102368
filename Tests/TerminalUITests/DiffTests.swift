import TerminalUI
import Testing

@Suite struct DiffTests {
    @Test func firstFrameDrawsEveryCell() {
        let buffer = Buffer(size: Size(width: 4, height: 3))
        #expect(buffer.updates(from: nil).count == 12)
    }

    @Test func onlyChangedCellsAreDrawn() {
        var old = Buffer(size: Size(width: 10, height: 3))
        old.put("hello", x: 0, y: 1)
        var new = old
        new.put("j", x: 0, y: 1)
        new.put("!", x: 9, y: 2)
        let updates = new.updates(from: old)
        #expect(
            updates == [
                CellUpdate(x: 0, y: 1, cell: Cell("j")),
                CellUpdate(x: 9, y: 2, cell: Cell("!")),
            ])
    }

    @Test func aResizeRedrawsEverything() {
        let old = Buffer(size: Size(width: 4, height: 2))
        let new = Buffer(size: Size(width: 5, height: 2))
        #expect(new.updates(from: old).count == 10)
    }

    @Test func styleChangesAreUpdates() {
        var old = Buffer(size: Size(width: 3, height: 1))
        old.put("abc", x: 0, y: 0)
        var new = old
        new.setStyle(Style(.selection), in: Rect(x: 0, y: 0, width: 3, height: 1))
        #expect(new.updates(from: old).count == 3)
    }

    /// Applying the diff to what the terminal showed must give exactly the new frame, including
    /// when wide graphemes move over narrow ones and back.
    @Test(arguments: [
        ("abcdef", "日本語"),
        ("日本語", "abcdef"),
        ("a日本b", "日a本b"),
        ("x🙂y", "xy🙂"),
        ("日本", "日本"),
        ("", "漢字テス"),
    ])
    func applyingTheDiffReproducesTheFrame(before: String, after: String) {
        var old = Buffer(size: Size(width: 8, height: 1))
        old.put(before, x: 0, y: 0)
        var new = Buffer(size: Size(width: 8, height: 1))
        new.put(after, x: 0, y: 0)
        var screen = old
        screen.apply(new.updates(from: old))
        #expect(screen == new)
        #expect(screen.text == after)
    }

    @Test func aChangedContinuationRedrawsItsWideCell() {
        var old = Buffer(size: Size(width: 4, height: 1))
        old.put("日", x: 0, y: 0)
        var new = Buffer(size: Size(width: 4, height: 1))
        new.put("日", x: 0, y: 0, style: Style(.tag))
        let updates = new.updates(from: old)
        #expect(updates.map(\.x) == [0])
    }
}
