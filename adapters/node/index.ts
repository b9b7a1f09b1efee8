/**
 * @module clubcred/node: a node:http listener around a fetch handler, for plain `node:http`, Express,
 * Koa or Fastify (mount it under a path prefix there).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { DEFAULTS } from '../../core/config.ts'
import { ProblemError } from '../../core/errors.ts'
import { problemResponse } from '../http/problem.ts'
import { withSecurityHeaders } from '../http/security-headers.ts'
import { acceptedRequestId, withRequestIdHeader } from '../http/request-id.ts'
import { answeredRequest, type AnsweredRequest } from '../http/answered.ts'
import { maskedExcerpt } from '../shared/mask-secrets.ts'
import { requestUrl } from './request-url.ts'
import { requestBody, settleUnreadBody } from './request-body.ts'
import { noteClientAddress } from '../http/client-address.ts'
import type { TrustedProxies } from '../http/trusted-proxies.ts'

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

export interface NodeListenerOptions {
  /** Called when the handler itself throws (it normally answers every error as a response). */
  onError?: (error: unknown) => void
  /**
   * One line about a request refused before it reached the handler (a malformed Host header), with the
   * id of its answer; the client's text in it is masked (`[email]`, `[token]`, …) and cut to 200 characters.
   */
  log?: (line: string, context: { requestId: string }) => void
  /**
   * Called for each answer the listener makes itself (a refused Host, a handler that threw); the
   * handler reports its own answers (`FetchHandlerOptions.onResponse`).
   */
  onResponse?: (answered: AnsweredRequest) => void
  /** Base of problem `type` URLs for the listener's own answers; defaults to the handler's. */
  problemBaseUrl?: string
  /** Peers whose `X-Forwarded-For` names the client (`createTrustedProxies`); none by default: the peer is the client. */
  trustedProxies?: TrustedProxies
}

type Handler = ((request: Request) => Promise<Response>) & { problemBaseUrl?: string }

/**
 * Turns `(Request) => Promise<Response>` into a node:http request listener. The request URL is built from
 * the `Host` header, which share pages route on; `req.originalUrl` (Express) is preferred to `req.url`
 * so that a mounted handler still sees its full path. A Host that does not form a URL is answered 400
 * `invalid-host` here. A request body the handler left unread is drained (up to a bound) so that the
 * keep-alive connection stays usable, or else the answer says `Connection: close`.
 *
 * @example
 * http.createServer(toNodeListener(issuer.fetch)).listen(8787)
 */
export function toNodeListener(
  handler: Handler,
  {
    onError = (error) => console.error('clubcred: listener failed:', error),
    log = (line) => console.error(`clubcred: ${line}`),
    onResponse,
    problemBaseUrl = handler.problemBaseUrl ?? DEFAULTS.problemBaseUrl,
    trustedProxies,
  }: NodeListenerOptions = {},
): NodeListener {
  return (req, res) => {
    const started = performance.now()
    // The listener's own answers have an id too; the handler settles its own from the same header.
    const requestId = () => acceptedRequestId(typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : null)
    const ownAnswer = async (code: 'invalid-host' | 'internal-error', detail: string, id: string, received: number) => {
      const response = withRequestIdHeader(withSecurityHeaders(problemResponse(new ProblemError(code, { detail }), problemBaseUrl, id)), id)
      await send(req, res, response, received)
      onResponse?.(
        answeredRequest(fetchShaped(req), started, {
          requestId: id,
          route: null,
          path: '*',
          status: response.status,
        }),
      )
    }
    const refuseHost = (received: number) => {
      const id = requestId()
      // The value is the client's: masked whole, then cut; JSON.stringify keeps the log one line whatever it holds.
      log(`400 invalid-host: ${req.method} with Host ${JSON.stringify(maskedExcerpt(req.headers.host ?? '', 200))}`, { requestId: id })
      return ownAnswer('invalid-host', 'The Host header is not a valid host[:port].', id, received)
    }
    handle(handler, req, res, refuseHost, trustedProxies).catch(async (error) => {
      onError(error)
      if (res.headersSent) return void res.end()
      await ownAnswer('internal-error', 'Something went wrong on our side.', requestId(), 0)
    })
  }
}

async function handle(
  handler: Handler,
  req: IncomingMessage,
  res: ServerResponse,
  refuseHost: (received: number) => Promise<void>,
  trustedProxies: TrustedProxies | undefined,
): Promise<void> {
  const url = requestUrl(req)
  if (url === null) return refuseHost(0)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const body = req.method !== 'GET' && req.method !== 'HEAD' ? requestBody(req) : null
  const request = new Request(url, { method: req.method, headers, body: body?.stream ?? null, duplex: 'half' } as RequestInit)
  const peer = req.socket.remoteAddress
  noteClientAddress(request, trustedProxies ? trustedProxies.clientAddress(peer, headers.get('x-forwarded-for')) : peer)
  const response = await handler(request)
  await send(req, res, response, body?.received() ?? 0, () => body?.detach())
}

/** Writes `response`, after settling whatever of the request body is still unread. */
async function send(req: IncomingMessage, res: ServerResponse, response: Response, received: number, detach = () => {}): Promise<void> {
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    out[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value
  })
  const bytes = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined
  if (bytes) out['content-length'] = String(bytes.byteLength)
  detach()
  if (!(await settleUnreadBody(req, received))) out.connection = 'close'
  res.writeHead(response.status, out)
  res.end(bytes)
}

/** What a request report reads of `req` (its method and headers), as a fetch Request offers it: the listener's own answers come before a Request exists. */
function fetchShaped(req: IncomingMessage): { method: string; headers: { get(name: string): string | null } } {
  return {
    method: req.method ?? 'GET',
    headers: {
      get: (name) => {
        const value = req.headers[name]
        return typeof value === 'string' ? value : null
      },
    },
  }
}

export { createNodeSigner } from './signer.ts'
export { createDataIntegritySigner } from './data-integrity-signer.ts'
export { createPresentationVerifier, type PresentationVerifierOptions } from './presentation-verifier.ts'
export { createScryptPasswordHasher, SCRYPT_DEFAULTS, type ScryptPasswordHasherOptions } from './password-hasher.ts'
export { createPasskeyVerifier } from './passkey-verifier.ts'

export { createWebhookTransport, type WebhookTransportOptions } from './webhook-transport.ts'
export { createTrustedProxies, type TrustedProxies } from '../http/trusted-proxies.ts'
