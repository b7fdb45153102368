import Foundation
import Logging
import ServiceLifecycle

/// Purges old tombstones and idempotency records at an interval while the server runs, then
/// the attached files whose items are gone for good and chunks no file lists.
///
/// Runs in every process; on PostgreSQL the purge takes each user's row lock, so two
/// processes purging at once only repeat a little work.
struct PurgeService: Service {
    let store: any SyncStore
    /// Where attachment chunks live; after the retention, files no item can reference go, then
    /// chunks no file lists.
    var chunks: (any ChunkStore)?
    var metrics: ServerMetrics?
    let retentionDays: Int
    let interval: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                await purgeOnce()
            }
        }
    }

    /// One purge; failures are logged and retried at the next interval.
    func purgeOnce() async {
        let cutoff = now().addingTimeInterval(-Double(retentionDays) * 86_400)
        do {
            let summary = try await store.purge(before: cutoff)
            if summary.tombstones > 0 || summary.records > 0 {
                logger.info(
                    "purged",
                    metadata: [
                        "tombstones": "\(summary.tombstones)", "records": "\(summary.records)",
                        "before": "\(cutoff)",
                    ])
            }
        } catch {
            logger.error("purge failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        guard let chunks else { return }
        do {
            // Files first: their chunks are then listed by no file and go with the chunk purge.
            let files = try await chunks.purgeFiles(before: cutoff)
            if files > 0 {
                logger.info("purged", metadata: ["files": "\(files)", "before": "\(cutoff)"])
                metrics?.countPurgedFiles(files)
            }
            let removed = try await chunks.purgeChunks(before: cutoff)
            if removed > 0 { logger.info("purged", metadata: ["chunks": "\(removed)", "before": "\(cutoff)"]) }
            let totals = try await chunks.chunkTotals()
            metrics?.setStoredChunks(count: totals.chunks, bytes: totals.bytes)
        } catch {
            logger.error("chunk purge failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
