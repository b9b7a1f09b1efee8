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
 * The answer of an operation run under an optional Idempotency-Key, marked `Idempotent-Replayed: true`
 * when it is a replay. A replayed result is the first one parsed back from its JSON text, so this
 * writes the first answer's bytes again (core/idempotency/claim.ts, completeClaim).
 */
export function idempotentResponse(body: unknown, { replayed }: { replayed: boolean }): Response {
  return json(body, 200, replayed ? { 'idempotent-replayed': 'true' } : {})
}

/** The idempotency options of a request: its `Idempotency-Key`, scoped to the calling client. */
export function idempotencyOf(request: Request, clientId: string): { idempotencyKey: string | null; idempotencyScope: string } {
  return { idempotencyKey: request.headers.get('idempotency-key'), idempotencyScope: clientId }
}
