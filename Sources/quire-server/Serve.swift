import ArgumentParser
import Foundation
import Hummingbird
import Logging
import QuireServer

/// `quire-server serve`: answers sync requests until SIGINT or SIGTERM, then finishes the
/// requests in flight and stops.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the sync server.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one; the log says which).")
    var port = 8080

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain; serve HTTPS with --tls-key.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(help: "Days to keep tombstones and idempotency records.")
    var retentionDays = 90

    @Option(help: "Requests per second allowed per token (0 turns rate limiting off).")
    var rateLimit: Double = 50

    @Option(help: "Requests a token may send in a burst above its rate.")
    var rateBurst = 100

    @Option(help: "Most PostgreSQL connections this process opens.")
    var postgresConnections = 16

    @Option(help: "Live-sync hint streams this process holds at once (each is one idle connection).")
    var hintStreams = 2_000

    @Option(help: "Live-sync hint streams one user may hold at once (one per running app).")
    var hintStreamsPerUser = 16

    @Option(help: "Seconds a live-sync hint stream stays open before the server ends it (the device reconnects).")
    var hintLifetime = 1800

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard retentionDays >= 1 else { throw ValidationError("--retention-days must be at least 1") }
        guard rateLimit >= 0, rateBurst >= 1 else {
            throw ValidationError("--rate-limit must be >= 0 and --rate-burst >= 1")
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        guard (1...1000).contains(postgresConnections) else {
            throw ValidationError("--postgres-connections must be from 1 to 1000")
        }
        guard hintStreams >= 0, hintStreamsPerUser >= 0 else {
            throw ValidationError("--hint-streams and --hint-streams-per-user must not be negative")
        }
        guard hintLifetime >= 1 else { throw ValidationError("--hint-lifetime must be at least 1 second") }
    }

    func run() async throws {
        let logger = store.makeLogger()
        // Opening the store first turns a database it cannot use (unreachable, or written by a
        // newer version) into one line and exit status 1, before anything listens.
        let location = store.location
        try await reportingFailures(logger) { quiet in try await ServerAdmin.withStore(location, logger: quiet) { _ in }
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.store = store.location
        configuration.tlsCertificatePath = tlsCertificate
        configuration.tlsKeyPath = tlsKey
        configuration.retentionDays = retentionDays
        configuration.rateLimit = RateLimit(perSecond: rateLimit, burst: rateBurst)
        configuration.postgresConnections = postgresConnections
        configuration.hintStreams = hintStreams
        configuration.hintStreamsPerUser = hintStreamsPerUser
        configuration.hintLifetime = .seconds(hintLifetime)
        do {
            let app = try buildApplication(configuration: configuration, logger: logger)
            try await app.runService()
            logger.info("stopped")
        } catch let error as ConfigurationError {
            printError(error.description)
            throw ExitCode(1)
        } catch {
            printError("the server stopped: \(error)")
            throw ExitCode(3)
        }
    }
}
