import { ProblemError } from '../../core/errors.ts'
import { problemResponse } from './problem.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { settleRequestId, withRequestIdHeader } from './request-id.ts'
import { answeredRequest, pathShape, type AnsweredRequest } from './answered.ts'

/**
 * A fetch handler that answers one route, `GET` or `HEAD` of `path`, and a 404 `route-not-found` problem (with
 * `notFound` as its detail) for anything else: the worker process's `/healthz`, the metrics port's
 * `/metrics`. Its answers carry a request id and the security headers, and are reported like the full
 * fetch handler's: the route when it matched, else the path's shape, never the raw path.
 */
export function createOneRouteHandler({
  path,
  respond,
  notFound,
  problemBaseUrl,
  onResponse,
}: {
  path: string
  respond: (request: Request) => Response | Promise<Response>
  notFound: string
  problemBaseUrl: string
  onResponse?: ((answered: AnsweredRequest) => void) | undefined
}): (request: Request) => Promise<Response> {
  const words: ReadonlySet<string> = new Set(path.split('/').filter((segment) => segment !== ''))
  return async (request) => {
    const started = performance.now()
    const requestId = settleRequestId(request)
    const { pathname } = new URL(request.url)
    const matched = pathname === path && (request.method === 'GET' || request.method === 'HEAD')
    const response = matched ? await respond(request) : problemResponse(new ProblemError('route-not-found', { detail: notFound }), problemBaseUrl, requestId)
    const answered = withRequestIdHeader(withSecurityHeaders(response), requestId)
    onResponse?.(
      answeredRequest(request, started, {
        requestId,
        route: matched ? path : null,
        ...(matched ? {} : { path: pathShape(pathname, words) }),
        status: answered.status,
      }),
    )
    return answered
  }
}
