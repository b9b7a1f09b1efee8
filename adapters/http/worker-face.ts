import { ProblemError } from '../../core/errors.ts'
import { problemResponse } from './problem.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { healthResponse } from './probes.ts'
import type { CoreIssuer } from '../../core/issuer.ts'

/**
 * The HTTP face of a `CLUBCRED_ROLE=worker` process: `GET /healthz` for the orchestrator that restarts
 * it, and nothing else (the server puts `/readyz` and `/metrics` in front: `withOperationalEndpoints`). A worker serves no public surface, so a request routed to it by mistake gets a
 * 404 problem rather than the API.
 */
export function createWorkerFetchHandler(issuer: CoreIssuer): (request: Request) => Promise<Response> {
  const { problemBaseUrl } = issuer.config
  return async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) return healthResponse(request, 'worker')
    const problem = new ProblemError('route-not-found', { detail: 'This process is a signing worker: it serves /healthz only.' })
    return withSecurityHeaders(problemResponse(problem, problemBaseUrl))
  }
}
