import Hummingbird
import Logging
import QuireProtocol

/// The outermost layer: turns every error into SPEC's JSON error body and records each
/// request's route, status and latency.
///
/// Nothing escapes it as a bare 500: Hummingbird's own errors (404 for an unknown route, 405
/// for a wrong method) get JSON bodies too, and anything unexpected becomes `internal`.
struct EdgeMiddleware: RouterMiddleware {
    typealias Context = QuireRequestContext
    let metrics: ServerMetrics
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = error.response
        } catch let error as any HTTPResponseError {
            response = EdgeMiddleware.translate(error.status).response
        } catch {
            logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
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
