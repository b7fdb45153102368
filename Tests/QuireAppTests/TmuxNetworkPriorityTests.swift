import Foundation
import QuireSync
import QuireTestSupport
import Testing

/// The app's network threads run below its UI, whatever made the first request: an upload's
/// socket writes are kernel time no key can interrupt, so they belong with the sync's lanes.
/// Before, they ran at the priority of whichever thread first made a request, in the app the
/// hint stream's: normal priority, level with the keys.
@Suite(.serialized, Tmux.required) struct TmuxNetworkPriorityTests {
    @Test func theAppsNetworkThreadsRunAtTheLanesPriority() throws {
        // Live: the hint stream is open, so the client and its threads are made.
        try TmuxSyncTruthTests().withLiveDevice { _, device, _ in
            let pid = try device.recordedPID()
            let network = Self.threads(of: pid).filter { $0.name.hasPrefix("NIO-") }
            #expect(!network.isEmpty, "the app runs its requests on NIO's threads")
            for thread in network {
                #expect(thread.policy == 3, "\(thread.name): SCHED_BATCH, as the lanes")
                #expect(
                    thread.nice == max(BackgroundThread.currentNiceness(), BackgroundThread.niceness), "\(thread.name)")
            }
            let main = try #require(Self.threads(of: pid).first { $0.id == pid })
            #expect(main.policy == 0, "the app's own thread stays a normal one")
        }
    }

    /// Each thread of `pid` with its name, nice value and scheduling policy, from `/proc`.
    static func threads(of pid: Int32) -> [(id: Int32, name: String, nice: Int32, policy: Int32)] {
        let directory = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return ids.compactMap { id in
            guard let stat = try? String(contentsOfFile: "\(directory)/\(id)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the name: field 3 (the state) on; the nice value is field 19, the policy 41.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 38, let nice = Int32(fields[16]), let policy = Int32(fields[38]),
                let thread = Int32(id)
            else { return nil }
            return (thread, String(stat[stat.index(after: open)..<close]), nice, policy)
        }
    }
}
