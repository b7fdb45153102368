import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import QuireProtocol
import ServiceLifecycle

/// Builds the server: the one function the executable and the tests call.
///
/// Opens the store the configuration names; `onRunning` hears the bound port (useful with
/// port 0).
public func buildApplication(
    configuration: ServerConfiguration, logger: Logger,
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let store = try openStore(
        configuration.store, connections: configuration.postgresConnections,
        sqliteBusyTimeout: configuration.sqliteBusyTimeout, logger: logger)
    return try buildApplication(
        configuration: configuration, store: store, logger: logger, now: { Date() }, onRunning: onRunning)
}

/// Builds the server around a given store and clock (tests pass their own).
func buildApplication(
    configuration: ServerConfiguration, store: any SyncStore, logger: Logger,
    now: @escaping @Sendable () -> Date, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> Application<RouterResponder<QuireRequestContext>> {
    let metrics = ServerMetrics()
    let hub = HintHub(limits: configuration.hints)
    let service = SyncService(
        store: store, limits: configuration.limits, limiter: RateLimiter(configuration.rateLimit),
        metrics: metrics, hub: hub, logger: logger, now: now)

    let router = Router(context: QuireRequestContext.self)
    let methods: [String: [HTTPRequest.Method]] = [
        SyncProtocol.syncPath: [.post], SyncProtocol.snapshotPath: [.get], SyncProtocol.healthPath: [.get],
        SyncProtocol.metricsPath: [.get], SyncProtocol.hintsPath: [.get], SyncProtocol.keyringPath: [.get, .put],
        AttachmentProtocol.chunksMissingPath: [.post],
    ]
    let edge = EdgeMiddleware(
        metrics: metrics, logger: logger, methods: methods, tls: configuration.tlsCertificatePath != nil,
        addressLimiter: RateLimiter(configuration.addressRateLimit), metricsToken: configuration.metricsToken)
    router.middlewares.add(edge)
    router.post(RouterPath(SyncProtocol.syncPath)) { request, _ in try await service.sync(request) }
    router.get(RouterPath(SyncProtocol.snapshotPath)) { request, _ in try await service.snapshot(request) }
    router.get(RouterPath(SyncProtocol.hintsPath)) { request, _ in try await service.hints(request) }
    router.get(RouterPath(SyncProtocol.keyringPath)) { request, _ in try await service.keyRing(request) }
    router.put(RouterPath(SyncProtocol.keyringPath)) { request, _ in try await service.storeKeyRing(request) }
    router.get(RouterPath(SyncProtocol.healthPath)) { _, _ in try await service.health() }
    let chunkStore = store as? any ChunkStore
    if let chunkStore {
        let files = AttachmentService(
            sync: service, chunks: chunkStore, limits: configuration.limits, metrics: metrics, now: now)
        router.post(RouterPath(AttachmentProtocol.chunksMissingPath)) { request, _ in try await files.missing(request) }
        router.put(RouterPath(AttachmentProtocol.chunksPath + "/:hash")) { request, context in
            try await files.putChunk(request, hash: context.parameters.get("hash") ?? "")
        }
        router.get(RouterPath(AttachmentProtocol.chunksPath + "/:hash")) { request, context in
            try await files.getChunk(request, hash: context.parameters.get("hash") ?? "")
        }
        router.put(RouterPath(AttachmentProtocol.filesPath + "/:hash")) { request, context in
            try await files.putFile(request, hash: context.parameters.get("hash") ?? "")
        }
        router.get(RouterPath(AttachmentProtocol.filesPath + "/:hash")) { request, context in
            try await files.getFile(request, hash: context.parameters.get("hash") ?? "")
        }
    }
    var metricsServer: [any Service] = []
    if let listen = configuration.metricsListen {
        // Metrics on an address of their own (an operator's network), not beside the API.
        let metricsRouter = Router(context: QuireRequestContext.self)
        metricsRouter.middlewares.add(edge)
        metricsRouter.get(RouterPath(SyncProtocol.metricsPath)) { _, _ in service.metricsText() }
        metricsServer.append(
            Application(
                router: metricsRouter,
                configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "quire-server"),
                onServerRunning: { channel in
                    logger.info("metrics on http://\(listen.host):\(channel.localAddress?.port ?? 0)/metrics")
                },
                logger: logger))
    } else {
        router.get(RouterPath(SyncProtocol.metricsPath)) { _, _ in service.metricsText() }
    }

    let purge = PurgeService(
        store: store, chunks: chunkStore, metrics: metrics, retentionDays: configuration.retentionDays,
        interval: configuration.purgeInterval, now: now, logger: logger)
    let scheme = configuration.tlsCertificatePath == nil ? "http" : "https"
    let host = configuration.host
    let connections = configuration.connections.fittingDescriptorLimit(logger: logger)
    var app = Application(
        router: router,
        server: try serverBuilder(configuration, connections: connections, logger: logger),
        configuration: .init(
            address: .hostname(host, port: configuration.port), serverName: "quire-server",
            availableConnectionsDelegate: ConnectionCap(limit: connections.maxConnections, logger: logger)),
        services: store.services + [purge, HintService(hub: hub, store: store, logger: logger)] + metricsServer,
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? 0
            logger.info("listening on \(scheme)://\(host):\(port)")
            await onRunning(port)
        },
        logger: logger)
    app.beforeServerStarts {
        try await store.prepare()
        await purge.purgeOnce()
    }
    return app
}

/// Plain HTTP/1.1, or HTTP/1.1 over TLS 1.2 or newer when a certificate and key are given;
/// every connection bounded in time and count by `connections`.
private func serverBuilder(
    _ configuration: ServerConfiguration, connections: ConnectionLimits, logger: Logger
) throws -> HTTPServerBuilder {
    let tally = AddressTally(limit: connections.maxConnectionsPerAddress, logger: logger)
    let http1 = HTTPServerBuilder.http1(
        configuration: .init(
            additionalChannelHandlers: [ConnectionGuard(limits: connections, tally: tally, logger: logger)],
            idleTimeout: TimeAmount(connections.idleTimeout)))
    switch (configuration.tlsCertificatePath, configuration.tlsKeyPath) {
    case (nil, nil):
        return http1
    case (let certificate?, let key?):
        let chain: [NIOSSLCertificate]
        let privateKey: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw ConfigurationError("cannot read the TLS certificate '\(certificate)': \(error)")
        }
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw ConfigurationError("cannot read the TLS key '\(key)': \(error)")
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        // TLS 1.0 and 1.1 are deprecated (RFC 8996); every client of ours speaks 1.2 or 1.3.
        tls.minimumTLSVersion = .tlsv12
        return try .tls(http1, tlsConfiguration: tls)
    default:
        throw ConfigurationError("--tls-cert and --tls-key go together")
    }
}

/// The store a location names.
func openStore(
    _ location: StoreLocation, connections: Int, sqliteBusyTimeout: TimeInterval = SQLiteStore.defaultBusyTimeout,
    logger: Logger
) throws -> any SyncStore {
    switch location {
    case .sqlite(let path):
        do {
            return try SQLiteStore(path: path, busyTimeout: sqliteBusyTimeout)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("cannot open the database '\(path)': \(error)")
        }
    case .postgres(let url):
        return try PostgresStore(url: url, maximumConnections: connections, logger: logger)
    }
}
