import QuireCore
import Testing

/// Task boxes of a body (SPEC: Markdown): which lines hold one, and ticking one.
@Suite struct TaskBoxTests {
    @Test func boxesAreListItemsThatStartWithOne() {
        let body = """
            - [ ] call mom
            * [x] buy bread
              + [X] nested
            1. [ ] first
            12) [ ]
            -[ ] no space
            - [y] not a box
            - [ ]not a box either
            text [ ] in a line
            ```
            - [ ] code
            ```
            - [ ] 日本 🚀
            """
        let boxes = TaskBox.boxes(in: body)
        #expect(boxes.map(\.text) == ["call mom", "buy bread", "nested", "first", "", "日本 🚀"])
        #expect(boxes.map(\.checked) == [false, true, true, false, false, false])
    }

    @Test func tickingChangesOneCharacterAndNothingElse() throws {
        let body = "intro\n- [ ] 日本\n- [x] done\n"
        let boxes = TaskBox.boxes(in: body)
        #expect(TaskBox.toggling(boxes[0], in: body) == "intro\n- [x] 日本\n- [x] done\n")
        #expect(TaskBox.toggling(boxes[1], in: body) == "intro\n- [ ] 日本\n- [ ] done\n")
    }
}
