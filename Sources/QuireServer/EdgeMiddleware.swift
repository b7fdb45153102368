import Foundation
import Hummingbird
import Logging
import QuireProtocol

/// The outermost layer: turns every error into SPEC's JSON error body and records each
/// request's route, status and latency.
///
/// Nothing escapes it as a bare 500: Hummingbird's own errors (404 for an unknown route) get
/// JSON bodies too, and anything unexpected becomes `internal`.
struct EdgeMiddleware: RouterMiddleware {
    typealias Context = QuireRequestContext
    let metrics: ServerMetrics
    let logger: Logger
    /// The methods each path answers. The router answers 404 for any other method on a
    /// known path; HTTP (RFC 9110, 15.5.6) wants 405 with `Allow`, and clients and API
    /// checkers rely on telling "wrong method" from "no such endpoint".
    let methods: [String: [HTTPRequest.Method]]
    /// Served over TLS: answers tell browsers to keep to HTTPS (HSTS).
    let tls: Bool
    /// Unauthenticated requests (`/healthz`, and every request answered 401) per client
    /// address: past it `/healthz` answers 429 at once, and so does a request that would
    /// answer 401.
    let addressLimiter: RateLimiter
    /// The bearer token `/metrics` asks for; nil leaves it open.
    let metricsToken: String?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            let address = context.clientAddress
            if request.uri.path == SyncProtocol.healthPath, let address, let wait = addressLimiter.take(address) {
                throw APIError.rateLimited(waiting: wait, "too many unauthenticated requests from \(address)")
            }
            if request.uri.path == SyncProtocol.metricsPath, let metricsToken,
                !Tokens.constantTimeEqual(
                    Tokens.hash(Tokens.bearer(request.headers[.authorization]) ?? ""), Tokens.hash(metricsToken))
            {
                throw APIError.unauthorized("/metrics needs 'Authorization: Bearer' with the metrics token")
            }
            if let allowed = methods[request.uri.path], !allowed.contains(request.method) {
                response = EdgeMiddleware.translate(.methodNotAllowed).response
                response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            } else if let coding = request.headers[.transferEncoding],
                coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
            {
                // RFC 9112, 6.1: a transfer coding the server does not know answers 501; the
                // decoder would read `gzip, chunked` as plain chunked and hand on gzip bytes.
                throw APIError.unsupportedTransferCoding(coding)
            } else {
                response = try await next(request, context)
            }
        } catch let error as APIError {
            response = error.response
        } catch let error as any HTTPResponseError {
            response = EdgeMiddleware.translate(error.status).response
        } catch {
            logger.error(
                "unexpected error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            response = APIError.internal("the server failed unexpectedly").response
        }
        if response.status == .unauthorized, request.uri.path != SyncProtocol.healthPath,
            let address = context.clientAddress, let wait = addressLimiter.take(address)
        {
            response = APIError.rateLimited(waiting: wait, "too many unauthenticated requests from \(address)").response
        }
        // RFC 7694: request bodies may come gzip-compressed (see `BodyCoding`).
        response.headers[.acceptEncoding] = SyncProtocol.requestCoding
        // Answers hold a user's notes: no cache keeps them, no browser reads them as anything
        // but what they say they are.
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        if tls { response.headers[.strictTransportSecurity] = "max-age=31536000" }
        let route = context.endpointPath ?? "unmatched"
        metrics.request(
            route: route, method: request.method.rawValue, status: response.status.code,
            duration: ContinuousClock.now - started)
        return response
    }

    /// SPEC's error body for a status Hummingbird decided.
    static func translate(_ status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound: return .notFound("no such endpoint")
        case .methodNotAllowed:
            return APIError(status: status, body: .init(.badRequest, "this endpoint does not take that method"))
        case .contentTooLarge: return .tooLarge("the request is too large")
        case .unauthorized: return .unauthorized("not signed in")
        default:
            if status.code >= 500 { return .internal("the server failed") }
            return APIError(status: status, body: .init(.badRequest, status.reasonPhrase))
        }
    }
}
