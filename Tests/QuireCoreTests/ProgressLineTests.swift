import QuireCore
import Testing

@Suite struct ProgressLineTests {
    @Test func aKnownTotalGivesShareRateAndTimeLeft() {
        let line = ProgressLine(verb: "importing")
        #expect(
            line.text(done: 412_000, total: 1_000_000, elapsed: 60)
                == "importing 412,000 of 1,000,000 items · 41% · 6,867/s · 1m 26s left")
        #expect(
            line.text(done: 1_000_000, total: 1_000_000, elapsed: 100)
                == "importing 1,000,000 of 1,000,000 items · 100% · 10,000/s")
    }

    @Test func anUnknownTotalGivesTheShareFromElsewhereOrNone() {
        let line = ProgressLine(verb: "pulling", unit: "changes")
        #expect(line.text(done: 5_000, elapsed: 2) == "pulling 5,000 changes · 2,500/s")
        #expect(line.text(done: 500, fraction: 0.25, elapsed: 10) == "pulling 500 changes · 25% · 50/s · 30s left")
        #expect(line.text(done: 0, elapsed: 0) == "pulling 0 changes")
    }

    @Test func numbersAndDurationsReadAsPeopleWriteThem() {
        #expect(ProgressLine.grouped(999) == "999")
        #expect(ProgressLine.grouped(1_000) == "1,000")
        #expect(ProgressLine.grouped(-12_345) == "-12,345")
        #expect(ProgressLine.duration(0.2) == "1s")
        #expect(ProgressLine.duration(3_700) == "1h 1m")
    }
}
