/**
 * @module clubcred/node: a node:http listener around a fetch handler, for plain `node:http`, Express,
 * Koa or Fastify (mount it under a path prefix there).
 */
import { Readable } from 'node:stream'
import type { IncomingMessage, ServerResponse } from 'node:http'

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

export interface NodeListenerOptions {
  /** Called when the handler itself throws (it normally answers every error as a response). */
  onError?: (error: unknown) => void
}

/**
 * Turns `(Request) => Promise<Response>` into a node:http request listener. The request URL is built from
 * the `Host` header, which share pages route on; `req.originalUrl` (Express) is preferred to `req.url`
 * so that a mounted handler still sees its full path.
 *
 * @example
 * http.createServer(toNodeListener(issuer.fetch)).listen(8787)
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
  { onError = (error) => console.error('clubcred: listener failed:', error) }: NodeListenerOptions = {},
): NodeListener {
  return (req, res) => {
    handle(handler, req, res).catch((error) => {
      onError(error)
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('internal error')
    })
  }
}

async function handle(handler: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  const url = new URL(path, `${protocol}://${req.headers.host ?? 'localhost'}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    duplex: 'half',
  } as RequestInit)

  const response = await handler(request)
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    out[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value
  })
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined
  if (body) out['content-length'] = String(body.byteLength)
  res.writeHead(response.status, out)
  res.end(body)
}

export { createNodeSigner } from './signer.ts'
