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
    /// The one method each path answers. The router answers 404 for any other method on a
    /// known path; HTTP (RFC 9110, 15.5.6) wants 405 with `Allow`, and clients and API
    /// checkers rely on telling "wrong method" from "no such endpoint".
    let methods: [String: HTTPRequest.Method]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            if let allowed = methods[request.uri.path], request.method != allowed {
                response = EdgeMiddleware.translate(.methodNotAllowed).response
                response.headers[.allow] = allowed.rawValue
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
        // RFC 7694: request bodies may come gzip-compressed (see `BodyCoding`).
        response.headers[.acceptEncoding] = SyncProtocol.requestCoding
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
