import ArgumentParser
import Foundation
import Hummingbird
import Logging
import QuireCore
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

    @Option(
        help: "Unauthenticated requests (/healthz, and any answered 401) per second per client address (0: no limit).")
    var addressRateLimit: Double = 5

    @Option(help: "Serve /metrics on HOST:PORT instead of the main address (port 0 picks one; the log says which).")
    var metricsListen: String?

    @Option(help: "Answer /metrics only to 'Authorization: Bearer TOKEN' with this token.")
    var metricsToken: String?

    @Option(help: "Most PostgreSQL connections this process opens.")
    var postgresConnections = 16

    @Option(help: "Live-sync hint streams this process holds at once (each is one idle connection).")
    var hintStreams = 2_000

    @Option(help: "Live-sync hint streams one user may hold at once (one per running app).")
    var hintStreamsPerUser = 16

    @Option(help: "Seconds a live-sync hint stream stays open before the server ends it (the device reconnects).")
    var hintLifetime = 1800

    @Option(help: "Seconds a connection may wait between requests, or take to send a request's head.")
    var idleTimeout = 75

    @Option(help: "Seconds a request's body may take to arrive after its head.")
    var bodyTimeout = 60

    @Option(help: "Seconds an answer may wait for a client that does not read it before the connection closes.")
    var writeTimeout = 60

    @Option(
        help: ArgumentHelp(
            "What one user may store: items (deleted ones until purged) and remembered answers, e.g. 500MiB; changes past it are refused (0: no limit).",
            valueName: "size"))
    var userQuota = "1GiB"

    /// `--user-quota` in bytes.
    private var userQuotaBytes: Int64 {
        get throws { try Self.size(userQuota, option: "--user-quota", example: "1GiB") }
    }

    /// A size option's value in bytes.
    private static func size(_ text: String, option: String, example: String) throws -> Int64 {
        guard let bytes = ByteCount.parse(text) else {
            throw ValidationError("\(option) must be a size such as \(example), 500MiB or 0 (no limit)")
        }
        return bytes
    }

    @Option(help: ArgumentHelp("The largest attached file, in MiB; larger ones are refused (413).", valueName: "mb"))
    var maxAttachmentMb = 100

    @Option(
        help: ArgumentHelp(
            "What one user's attached files may take, e.g. 10GiB; uploads past it are refused (0: no limit).",
            valueName: "size"))
    var attachmentQuota = "10GiB"

    /// `--attachment-quota` in bytes.
    private var attachmentQuotaBytes: Int64 {
        get throws { try Self.size(attachmentQuota, option: "--attachment-quota", example: "10GiB") }
    }

    @Option(help: "Connections open at once (lowered to fit the descriptor limit); more wait to be accepted.")
    var maxConnections = 4096

    @Option(help: "Connections open at once from one client address; more are closed at once.")
    var maxConnectionsPerAddress = 256

    /// `--metrics-listen` as host and port.
    private var metricsAddress: (host: String, port: Int)? {
        get throws {
            guard let text = metricsListen else { return nil }
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (0...65535).contains(port), colon != text.startIndex
            else { throw ValidationError("--metrics-listen must be HOST:PORT, e.g. 127.0.0.1:9090") }
            return (String(text[..<colon]), port)
        }
    }

    func validate() throws {
        _ = try metricsAddress
        _ = try userQuotaBytes
        _ = try attachmentQuotaBytes
        guard maxAttachmentMb >= 1 else { throw ValidationError("--max-attachment-mb must be at least 1") }
        guard addressRateLimit >= 0 else { throw ValidationError("--address-rate-limit must not be negative") }
        guard metricsToken.map({ $0.count >= 16 }) ?? true else {
            throw ValidationError("--metrics-token must be at least 16 characters")
        }
        guard idleTimeout >= 1, bodyTimeout >= 1, writeTimeout >= 1 else {
            throw ValidationError("--idle-timeout, --body-timeout and --write-timeout must be at least 1 second")
        }
        guard maxConnections >= 1, maxConnectionsPerAddress >= 1 else {
            throw ValidationError("--max-connections and --max-connections-per-address must be at least 1")
        }
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

        configuration.addressRateLimit = RateLimit(perSecond: addressRateLimit, burst: 20)
        configuration.metricsListen = try metricsAddress
        configuration.metricsToken = metricsToken
        configuration.limits.userQuotaBytes = try userQuotaBytes
        configuration.limits.maxAttachmentBytes = Int64(maxAttachmentMb) << 20
        configuration.limits.attachmentQuotaBytes = try attachmentQuotaBytes
        configuration.connections.idleTimeout = .seconds(idleTimeout)
        configuration.connections.bodyTimeout = .seconds(bodyTimeout)
        configuration.connections.writeTimeout = .seconds(writeTimeout)
        configuration.connections.maxConnections = maxConnections
        configuration.connections.maxConnectionsPerAddress = maxConnectionsPerAddress
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
