import TerminalUI
import Testing

@Suite struct TestBackendTests {
    @Test func theScreenFollowsTheDrawnUpdates() {
        let backend = TestBackend(size: Size(width: 10, height: 2))
        var frame = Buffer(size: backend.size)
        frame.put("hi 日本", x: 0, y: 0)
        backend.draw(frame.updates(from: nil), cursor: Point(x: 2, y: 1))
        var next = frame
        next.put("ho", x: 0, y: 0)
        backend.draw(next.updates(from: frame), cursor: nil)
        #expect(backend.screen.lines == ["ho 日本", ""])
        #expect(backend.lastUpdateCount == 1)
        #expect(backend.frames == 2)
        #expect(backend.cursor == nil)
    }

    @Test func keysComeOutInOrder() {
        let backend = TestBackend(size: Size(width: 10, height: 2))
        backend.type([.character("j"), .control("s")])
        #expect(backend.readInput() == .key(.character("j")))
        #expect(backend.readInput() == .key(.control("s")))
        #expect(backend.readInput() == nil)
    }

    @Test func rawCodesMapToKeys() {
        #expect(Key.fromCode(13) == .enter)
        #expect(Key.fromCode(19) == .control("s"))
        #expect(Key.fromCode(127) == .backspace)
        #expect(Key.fromCode(27) == .escape)
        #expect(Key.fromCode(0x65E5) == .character("日"))
        #expect(Key.control("s").name == "Ctrl-S")
    }
}
