import * as v from 'valibot'

/** A single read or write answer of the club API, `{ data }` (docs/api.md §4). */
export const dataOf = <Schema extends v.GenericSchema>(schema: Schema) => v.object({ data: schema })

/** A JSON response; `data` wrapping is the caller's (docs/api.md §4: `{ data }` and `{ data, meta }`). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

/**
 * The answer of an operation run under an optional Idempotency-Key: the stored JSON text as it is
 * (byte for byte on a replay), marked `Idempotent-Replayed: true` when it is one.
 */
export function idempotentResponse(outcome: { status: number; body: string; replayed: boolean }): Response {
  return new Response(outcome.body, {
    status: outcome.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(outcome.replayed ? { 'idempotent-replayed': 'true' } : {}),
    },
  })
}

/** The idempotency options of a request: its `Idempotency-Key`, scoped to the calling client. */
export function idempotencyOf(request: Request, clientId: string): { idempotencyKey: string | null; idempotencyScope: string } {
  return { idempotencyKey: request.headers.get('idempotency-key'), idempotencyScope: clientId }
}
