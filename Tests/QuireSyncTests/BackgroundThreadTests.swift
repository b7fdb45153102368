import Foundation
import QuireSync
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The lanes work below the UI runs on (transfers, the list's reads): one thread each, in order,
/// at nice 10 and as a batch thread, named for `top -H`.
@Suite struct BackgroundThreadTests {
    @Test func runsItsWorkInOrderOnALowPriorityBatchThread() async throws {
        let lane = BackgroundThread(name: "quire.test-lane")
        let seen = Mutex<[Int]>([])
        let attributes = Mutex<(niceness: Int32, policy: Int32, name: String)?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<50 {
                lane.async {
                    seen.withLock { $0.append(index) }
                    if index == 49 {
                        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                        attributes.withLock {
                            $0 = (
                                BackgroundThread.currentNiceness(), sched_getscheduler(0),
                                name.trimmingCharacters(in: .whitespacesAndNewlines)
                            )
                        }
                        done.resume()
                    }
                }
            }
        }
        #expect(seen.withLock { $0 } == Array(0..<50), "in the order given, one at a time")
        let own = BackgroundThread.currentNiceness()
        let recorded = try #require(attributes.withLock { $0 })
        #expect(recorded.niceness == max(own, BackgroundThread.niceness))
        #expect(recorded.policy == 3, "SCHED_BATCH: a wake-up never takes the core from the UI")
        #expect(recorded.name == "quire.test-lane", "named for `top -H`")
    }

    /// A pool made through it starts its threads below the UI, whichever thread asks; the
    /// thread that asks keeps its own priority.
    @Test func threadsStartedBelowTheUIInheritTheLanesPriority() async throws {
        let policyBefore = sched_getscheduler(0)
        let started = BackgroundThread.startingThreadsBelowTheUI {
            let seen = Mutex<(niceness: Int32, policy: Int32)?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                seen.withLock { $0 = (BackgroundThread.currentNiceness(), sched_getscheduler(0)) }
                done.signal()
            }.start()
            done.wait()
            return seen.withLock { $0 }
        }
        let recorded = try #require(started)
        #expect(recorded.niceness == max(BackgroundThread.currentNiceness(), BackgroundThread.niceness))
        #expect(recorded.policy == 3, "SCHED_BATCH, as the lanes")
        #expect(sched_getscheduler(0) == policyBefore, "the asking thread is left as it was")
    }
}
