import { healthResponse } from './probes.ts'
import { createOneRouteHandler } from './one-route-handler.ts'
import type { AnsweredRequest } from './answered.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'

/**
 * The fetch handler of a `CLUBCRED_ROLE=worker` process: `GET /healthz` for the orchestrator that restarts
 * it, and nothing else (the server puts `/readyz` and `/metrics` in front: `withOperationalEndpoints`). A
 * worker serves no public surface, so a request routed to it by mistake gets a 404 problem rather than
 * the API. Its answers carry a request id and are reported like the full fetch handler's.
 */
export function createWorkerFetchHandler(
  issuer: CoreIssuer,
  { onResponse }: { onResponse?: (answered: AnsweredRequest) => void } = {},
): (request: Request) => Promise<Response> {
  return createOneRouteHandler({
    path: '/healthz',
    respond: (request) => healthResponse(request, 'worker'),
    notFound: 'This process is a signing worker: it serves /healthz only.',
    problemBaseUrl: issuer.config.problemBaseUrl,
    onResponse,
  })
}
