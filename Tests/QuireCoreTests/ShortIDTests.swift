import Foundation
import QuireCore
import Testing

@Suite struct ShortIDTests {
    @Test func candidatesStartWithTheRandomEndAndNeverUseTheTimestamp() {
        let id = "0193a9d2-7fff-7abc-9def-0123456789ab"
        let candidates = ShortID.candidates(for: id)
        #expect(Array(candidates.prefix(3)) == ["89ab", "789ab", "6789ab"])
        #expect(candidates.contains("56789a"))
        #expect(candidates.last == "0193a9d27fff7abc9def0123456789ab")
        for candidate in candidates.dropLast() {
            #expect(!"0193a9d27fff".contains(candidate), "\(candidate) comes from the timestamp")
        }
        #expect(Set(candidates).count == candidates.count)
    }

    /// Gives short ids the way the store does (in id order, first free candidate) to stores of
    /// growing size: every id is unique and none is longer than six digits up to 100,000 items.
    @Test(arguments: [1_000, 10_000, 100_000])
    func shortIDsFitSixDigits(count: Int) {
        var generator = UUIDv7Generator()
        var random = SeededRandom(seed: UInt64(count))
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        var taken = Set<String>()
        var longest = 0
        for index in 0..<count {
            let id = generator.next(now: start.addingTimeInterval(Double(index) * 0.0007), using: &random)
            let code = ShortID.candidates(for: id).first { !taken.contains($0) }!
            taken.insert(code)
            longest = max(longest, code.count)
        }
        #expect(taken.count == count)
        #expect(longest <= ShortID.preferredMaximumLength)
    }
}
