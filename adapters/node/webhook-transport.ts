import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import { Agent, buildConnector, request } from 'undici'
import type { WebhookRequest, WebhookTransport } from '../../core/ports/webhook-transport.ts'

/** Bytes of a response body read at most; the rest is discarded with the connection. */
const BODY_LIMIT = 4096
/** How long the few bytes of an answer's body may take to arrive after its status. */
const BODY_TIMEOUT_MS = 1000

export interface WebhookTransportOptions {
  /** Resolves host names (`dns.lookup` by default); tests pass one that maps a name to loopback. */
  lookup?: (host: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void
}

type Lookup = NonNullable<WebhookTransportOptions['lookup']>

/**
 * Resolves once, refuses the connection when any address fails core's rule, and connects to the
 * address it checked: the socket never resolves again, so DNS rebinding cannot swap the address
 * between the check and the connection.
 */
function checkedLookup(lookup: Lookup, acceptAddress: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const refused = addresses.find((a) => !acceptAddress(a.address))
      if (refused || addresses.length === 0) {
        return callback(refusal(`address refused: ${hostname} resolves to ${refused?.address ?? 'nothing'}`), '', 0)
      }
      const chosen = addresses[0]!
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [chosen])
      else callback(null, chosen.address, chosen.family)
    })
  }
}

/**
 * Checks each connection at both ends of its opening. Before: a literal address in the URL is never
 * looked up, so the rule is applied to it here. After: the socket's remote address is checked again, and
 * the socket closed before a byte of the request is written, so that no path to a connection (a lookup
 * that does not go through `checkedLookup`, a future undici) can reach a refused address unnoticed.
 */
export function checkedConnector(connect: buildConnector.connector, acceptAddress: (address: string) => boolean): buildConnector.connector {
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '')
    if (isIP(host) && !acceptAddress(host)) return callback(refusal(`address refused: ${host}`), null)
    connect(options, (error, socket) => {
      if (error) return callback(error, null)
      const remote = socket!.remoteAddress
      if (remote !== undefined && acceptAddress(remote)) return callback(null, socket!)
      socket!.destroy()
      callback(refusal(`address refused: ${options.hostname} connected to ${remote ?? 'no address'}`), null)
    })
  }
}

const refusal = (message: string) => Object.assign(new Error(message), { code: 'EREFUSED' })

/**
 * Webhook attempts through undici. One pooled dispatcher per address rule and connect timeout (a
 * process has one of each), so attempts to a receiver reuse its keep-alive connections: every
 * connection was opened to an address the rule accepted when it was made. `request` never follows a
 * redirect (a 3xx is an answer like any other); the total timeout is an abort signal over the whole
 * attempt; at most `BODY_LIMIT` bytes of an answer are read.
 */
export function createWebhookTransport({ lookup = dnsLookup }: WebhookTransportOptions = {}): WebhookTransport & { close(): Promise<void> } {
  const dispatchers = new Map<string, { rule: WebhookRequest['acceptAddress']; agent: Agent }>()

  function dispatcherFor({ acceptAddress, connectTimeoutMs, timeoutMs }: WebhookRequest): Agent {
    const key = `${connectTimeoutMs}/${timeoutMs}`
    const known = dispatchers.get(key)
    if (known?.rule === acceptAddress) return known.agent
    if (known) void known.agent.close()
    const agent = new Agent({
      connect: checkedConnector(buildConnector({ timeout: connectTimeoutMs, lookup: checkedLookup(lookup, acceptAddress) }), acceptAddress),
      // No cap per origin: the sender's slots bound the connections, and a cap would queue one club's
      // attempt behind another club's hanging ones to the same receiving service.
      connections: null,
      headersTimeout: timeoutMs,
      bodyTimeout: BODY_TIMEOUT_MS,
    })
    dispatchers.set(key, { rule: acceptAddress, agent })
    return agent
  }

  return {
    async send(attempt) {
      const target = new URL(attempt.url)
      try {
        const answer = await request(target, {
          method: 'POST',
          headers: attempt.headers,
          body: attempt.body,
          dispatcher: dispatcherFor(attempt),
          signal: AbortSignal.timeout(attempt.timeoutMs),
        })
        // The answer is its status; a little of the body is read so the connection can be reused.
        await answer.body.dump({ limit: BODY_LIMIT }).catch(() => {})
        return { status: answer.statusCode }
      } catch (error) {
        throw new Error(describe(error, attempt), { cause: error })
      }
    },
    async close() {
      await Promise.all([...dispatchers.values()].map(({ agent }) => agent.close()))
      dispatchers.clear()
    },
  }
}

/** A delivery-log line for a failed attempt: its kind, never a header or the body. */
function describe(error: unknown, { connectTimeoutMs, timeoutMs }: WebhookRequest): string {
  const { name, code, message, cause } = error as { name?: string; code?: string; message?: string; cause?: unknown }
  if (name === 'TimeoutError' || name === 'AbortError') return `timeout: no answer within ${timeoutMs} ms`
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `timeout: no connection within ${connectTimeoutMs} ms`
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return `timeout: no answer within ${timeoutMs} ms`
  const inner = cause instanceof Error ? cause.message : ''
  return (inner || message || String(error)).slice(0, 300)
}
