import { ProblemError } from '../core/errors.ts'
import { problemResponse } from '../adapters/http/problem.ts'
import { withSecurityHeaders } from '../adapters/http/security-headers.ts'
import { settleRequestId, withRequestIdHeader } from '../adapters/http/request-id.ts'
import { answeredRequest, type AnsweredRequest } from '../adapters/http/answered.ts'

type Handler = (request: Request) => Promise<Response>

/**
 * A fetch handler that can drain: once `begin()` is called, requests in flight finish and new ones are
 * answered 503 `shutting-down`; `begin()` resolves when none is left in flight. The Deno entry drains
 * with it before `Deno.serve`'s own `shutdown()`, which on Deno 2.9 makes the bodies of requests in
 * flight unreadable (denoland/deno#36809; docs/shutdown.md § On Deno). Each refusal is reported to
 * `onResponse` like any answer (docs/logs.md § Request lines): no route answered it, so its path is `*`.
 */
export function drainable(
  handler: Handler,
  problemBaseUrl: string,
  { onResponse }: { onResponse?: (answered: AnsweredRequest) => void } = {},
): { handler: Handler; begin(): Promise<void> } {
  let inFlight = 0
  let draining = false
  let idle: (() => void) | null = null
  const refusal = (request: Request) => {
    const started = performance.now()
    const requestId = settleRequestId(request)
    const problem = new ProblemError('shutting-down', { detail: 'This server is shutting down; try again shortly.' })
    const response = withRequestIdHeader(withSecurityHeaders(problemResponse(problem, problemBaseUrl, requestId)), requestId)
    onResponse?.(
      answeredRequest(request, started, {
        requestId,
        route: null,
        path: '*',
        status: response.status,
      }),
    )
    return response
  }
  const wrapped: Handler = async (request) => {
    if (draining) return refusal(request)
    inFlight++
    try {
      return await handler(request)
    } finally {
      if (--inFlight === 0) idle?.()
    }
  }
  return {
    handler: wrapped,
    begin() {
      draining = true
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))
    },
  }
}
