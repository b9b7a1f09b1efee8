import { ClubcredError, errorFromResponse } from './errors.ts'
import type { FetchLike, TokenSource } from './token-source.ts'

/** One call of the API as the client methods describe it. */
export interface CallSpec {
  method: 'GET' | 'POST' | 'PATCH'
  url: string
  /** Sent as JSON; absent: no body. */
  body?: unknown
  /** Whether the call carries a bearer token (the public surface does not). */
  auth: boolean
  idempotencyKey?: string
  /**
   * Whether a request that failed on the network (no response) may be sent again. True for reads and
   * for writes under an `Idempotency-Key` (the server replays instead of repeating them); never for
   * other writes, which the server might have applied.
   */
  retryOnNetworkError: boolean
  /** Reads a successful body. Default: JSON (an empty body is `undefined`). */
  parse?: (response: Response) => Promise<unknown>
  /** Accepts an error status whose JSON body is an answer, not a problem (the verification verdict's 404). */
  accept?: (status: number, body: unknown) => boolean
}

/** A successful answer: the parsed body, with status and headers (for `Idempotent-Replayed`). */
export interface CallResult<T> {
  body: T
  status: number
  headers: Headers
}

/** Sends one call; see {@link createTransport}. */
export type Transport = <T>(spec: CallSpec) => Promise<CallResult<T>>

/** How often a write waits for an earlier request under its own key (409 `idempotency-in-flight`). */
const IN_FLIGHT_WAITS = 5

/**
 * Sends calls with the client's token and turns error answers into {@link ClubcredError}. Retries, each
 * at most once per cause: a 401 `invalid-token` with a fresh token (the server's clock may run ahead,
 * or the token was revoked), and a lost response when `retryOnNetworkError` allows it, with the same
 * `Idempotency-Key`. A 409 `idempotency-in-flight` on a keyed write is waited out with back-off.
 */
export function createTransport({ fetch, tokens, sleep }: { fetch: FetchLike; tokens: TokenSource; sleep: (ms: number) => Promise<void> }): Transport {
  return async function call<T>(spec: CallSpec): Promise<CallResult<T>> {
    let networkRetried = false
    let tokenRetried = false
    let inFlightWaits = 0
    for (;;) {
      const token = spec.auth ? await tokens.get() : null
      const headers: Record<string, string> = { accept: 'application/json' }
      if (token !== null) headers.authorization = `Bearer ${token}`
      if (spec.body !== undefined) headers['content-type'] = 'application/json'
      if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey
      const init: RequestInit = { method: spec.method, headers }
      if (spec.body !== undefined) init.body = JSON.stringify(spec.body)

      let response: Response
      try {
        response = await fetch(new Request(spec.url, init))
      } catch (error) {
        if (spec.retryOnNetworkError && !networkRetried && !isAbort(error)) {
          networkRetried = true
          await sleep(100)
          continue
        }
        throw error
      }

      if (response.ok) {
        return { body: (await (spec.parse ?? readJson)(response)) as T, status: response.status, headers: response.headers }
      }
      if (spec.accept) {
        const body = await readJson(response.clone()).catch(() => undefined)
        if (spec.accept(response.status, body)) return { body: body as T, status: response.status, headers: response.headers }
      }
      const error = await errorFromResponse(response)
      if (token !== null && error.code === 'invalid-token' && !tokenRetried) {
        tokens.invalidate(token)
        tokenRetried = true
        continue
      }
      if (spec.idempotencyKey !== undefined && error.code === 'idempotency-in-flight' && inFlightWaits < IN_FLIGHT_WAITS) {
        await sleep(100 * 2 ** inFlightWaits)
        inFlightWaits += 1
        continue
      }
      throw error
    }
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch (cause) {
    const error = new ClubcredError(response.status, {
      type: 'about:blank',
      title: 'Unexpected response',
      status: response.status,
      detail: `The server answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      code: 'unexpected-response',
    })
    throw Object.assign(error, { cause })
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
}
