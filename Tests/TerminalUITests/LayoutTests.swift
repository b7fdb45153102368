import TerminalUI
import Testing

@Suite struct LayoutTests {
    @Test func fixedPartsFirstThenTheRestIsShared() {
        let area = Rect(x: 0, y: 0, width: 80, height: 24)
        let parts = area.split(.vertical, [.length(1), .fill, .length(1)])
        #expect(parts.map(\.height) == [1, 22, 1])
        #expect(parts.map(\.y) == [0, 1, 23])
    }

    @Test func percentagesAndMinimums() {
        let area = Rect(x: 10, y: 0, width: 100, height: 5)
        let parts = area.split(.horizontal, [.percentage(40), .min(10)])
        #expect(parts.map(\.width) == [40, 60])
        #expect(parts.map(\.x) == [10, 50])
    }

    @Test func partsNeverExceedTheArea() {
        let area = Rect(x: 0, y: 0, width: 5, height: 3)
        let parts = area.split(.vertical, [.length(2), .length(2), .length(2), .fill])
        #expect(parts.map(\.height) == [2, 1, 0, 0])
    }

    @Test func fillPartsShareTheRemainderEvenly() {
        let parts = Rect(x: 0, y: 0, width: 11, height: 1).split(.horizontal, [.fill, .fill, .fill])
        #expect(parts.map(\.width) == [4, 4, 3])
    }
}
