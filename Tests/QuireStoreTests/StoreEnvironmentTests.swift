import Foundation
import QuireCore
import QuireStore
import Testing

@Suite struct StoreEnvironmentTests {
    /// Every use of `live` shares one generator: ids asked for through separate reads of it, from
    /// several threads at once and within the same millisecond, still come out strictly
    /// increasing in the order they were made.
    @Test func liveIdsIncreaseAcrossEveryUseInTheProcess() {
        let instant = Date(timeIntervalSince1970: 1_800_000_000)
        let made = MadeIDs()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 { made.append { StoreEnvironment.live.newID(instant) } }
        }
        let ids = made.all
        #expect(ids.count == 2000)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ids must increase in the order they were made")
    }
}

/// Ids in the order they were made: making one and recording it happen under one lock.
private final class MadeIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []

    func append(_ make: () -> String) { lock.withLock { ids.append(make()) } }
    var all: [String] { lock.withLock { ids } }
}
