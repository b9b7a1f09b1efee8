import { ProblemError } from '../../core/errors.ts'
import { problemResponse } from './problem.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { healthResponse } from './probes.ts'
import { REQUEST_ID_HEADER, acceptedRequestId, withRequestIdHeader } from './request-id.ts'
import { answeredRequest, pathShape, type AnsweredRequest } from './answered.ts'
import type { CoreIssuer } from '../../core/issuer.ts'

/**
 * The HTTP face of a `CLUBCRED_ROLE=worker` process: `GET /healthz` for the orchestrator that restarts
 * it, and nothing else (the server puts `/readyz` and `/metrics` in front: `withOperationalEndpoints`). A
 * worker serves no public surface, so a request routed to it by mistake gets a 404 problem rather than
 * the API. Its answers carry a request id and are reported like the full face's.
 */
const WORKER_WORDS: ReadonlySet<string> = new Set(['healthz'])

export function createWorkerFetchHandler(
  issuer: CoreIssuer,
  { onResponse }: { onResponse?: (answered: AnsweredRequest) => void } = {},
): (request: Request) => Promise<Response> {
  const { problemBaseUrl } = issuer.config
  const answer = (request: Request, requestId: string): { response: Response; route: string | null } => {
    const { pathname } = new URL(request.url)
    if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD'))
      return { response: healthResponse(request, 'worker'), route: '/healthz' }
    const problem = new ProblemError('route-not-found', { detail: 'This process is a signing worker: it serves /healthz only.' })
    return { response: problemResponse(problem, problemBaseUrl, requestId), route: null }
  }
  return async (request) => {
    const started = performance.now()
    const requestId = acceptedRequestId(request.headers.get(REQUEST_ID_HEADER))
    const { response, route } = answer(request, requestId)
    const answered = withRequestIdHeader(withSecurityHeaders(response), requestId)
    onResponse?.(
      answeredRequest(request, started, {
        requestId,
        route,
        ...(route === null ? { path: pathShape(new URL(request.url).pathname, WORKER_WORDS) } : {}),
        status: answered.status,
      }),
    )
    return answered
  }
}
