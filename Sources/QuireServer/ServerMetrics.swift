import Prometheus

/// The server's Prometheus metrics, kept in one registry per application (no globals, so
/// tests can run several servers in one process).
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let applied: Counter
    private let conflicted: Counter
    private let duplicate: Counter
    private let rejected: Counter
    private let skipped: Counter
    private let storeErrors: Counter
    private let changesSent: Counter
    private let hintStreamGauge: Gauge
    private let hintsSent: Counter
    private let chunksReceived: Counter
    private let chunkBytesReceived: Counter
    private let chunksSent: Counter
    private let chunkBytesSent: Counter
    private let filesPurged: Counter
    private let chunksStored: Gauge
    private let chunkBytesStored: Gauge

    /// Latency buckets from a millisecond to ten seconds.
    private static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .seconds(2.5), .seconds(5), .seconds(10),
    ]

    init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        func ops(_ status: String) -> Counter {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "quire", metricName: "ops", unitName: "total", helpText: "Pushed operations by outcome."),
                labels: [("status", status)])
        }
        applied = ops("applied")
        conflicted = ops("conflict")
        duplicate = ops("duplicate")
        rejected = ops("rejected")
        skipped = ops("skipped")
        storeErrors = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "quire", metricName: "store_errors", unitName: "total",
                helpText: "Store operations that failed."))
        changesSent = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "quire", metricName: "changes_sent", unitName: "total",
                helpText: "Items sent in change pages and snapshots."))
        hintStreamGauge = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "quire", metricName: "hint", unitName: "streams",
                helpText: "Open live-sync hint streams."))
        hintsSent = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "quire", metricName: "hints_sent", unitName: "total",
                helpText: "Feed-moved hints written to hint streams."))
        func counter(_ name: String, _ help: String) -> Counter {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "quire", metricName: name, unitName: "total", helpText: help))
        }
        chunksReceived = counter("chunks_received", "Attachment chunks uploaded (new ones and repeats).")
        chunkBytesReceived = counter("chunk_bytes_received", "Bytes of attachment chunks uploaded.")
        chunksSent = counter("chunks_sent", "Attachment chunks downloaded.")
        chunkBytesSent = counter("chunk_bytes_sent", "Bytes of attachment chunks downloaded.")
        filesPurged = counter("files_purged", "Attached files purged once no item could reference them.")
        let stored = [("chunks", "Attachment chunks stored"), ("chunk_bytes", "Bytes of attachment chunks stored")].map
        {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "quire", metricName: "stored", unitName: $0.0, helpText: $0.1 + ", all accounts."))
        }
        chunksStored = stored[0]
        chunkBytesStored = stored[1]
    }

    /// Counts an uploaded chunk; a new one adds to what is stored.
    func chunkReceived(bytes: Int, new: Bool) {
        chunksReceived.increment()
        chunkBytesReceived.increment(by: Int64(bytes))
        if new {
            chunksStored.increment(by: 1)
            chunkBytesStored.increment(by: Double(bytes))
        }
    }

    /// Counts files the purge removed.
    func countPurgedFiles(_ count: Int) { filesPurged.increment(by: Int64(count)) }

    /// Counts a downloaded chunk.
    func chunkSent(bytes: Int) {
        chunksSent.increment()
        chunkBytesSent.increment(by: Int64(bytes))
    }

    /// Sets what is stored, as the store counted it (at start and after each purge).
    func setStoredChunks(count: Int64, bytes: Int64) {
        chunksStored.set(Double(count))
        chunkBytesStored.set(Double(bytes))
    }

    /// Counts one answered request and its latency.
    func request(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "quire", subsystem: "http", metricName: "requests", unitName: "total",
                helpText: "HTTP requests by route, method and status."),
            labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "quire", subsystem: "http", metricName: "request_duration", unitName: "seconds",
                helpText: "Time from request to response, by route."),
            labels: [("route", route)],
            buckets: ServerMetrics.buckets
        ).record(duration)
    }

    func record(_ tally: OpTally) {
        if tally.applied > 0 { applied.increment(by: Int64(tally.applied)) }
        if tally.conflicted > 0 { conflicted.increment(by: Int64(tally.conflicted)) }
        if tally.duplicate > 0 { duplicate.increment(by: Int64(tally.duplicate)) }
        if tally.rejected > 0 { rejected.increment(by: Int64(tally.rejected)) }
        if tally.skipped > 0 { skipped.increment(by: Int64(tally.skipped)) }
    }

    func storeError() { storeErrors.increment() }

    func sent(_ count: Int) {
        if count > 0 { changesSent.increment(by: Int64(count)) }
    }

    /// The Prometheus text exposition.
    /// Counts hint streams opening (+1) and closing (-1).
    func hintStreams(opened change: Int) {
        if change > 0 {
            hintStreamGauge.increment(by: Double(change))
        } else {
            hintStreamGauge.decrement(by: Double(-change))
        }
    }

    /// Counts one hint written to a stream.
    func hintSent() { hintsSent.increment() }

    func text() -> String { registry.emitToString() }
}
