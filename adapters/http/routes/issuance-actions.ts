import { readInput } from '../body.ts'
import type { NotifyBody, RevokeManyBody } from '../../../core/inputs.ts'
import { idempotencyOf, idempotentResponse, json } from '../responses.ts'
import { numericId } from '../router.ts'
import type { ScopedCall } from '../operation.ts'

/** Resend (docs/api.md §4.7a): no body (or `{}`); 202, the mail is sent by the worker. */
export async function notify({ issuer, request, club }: ScopedCall): Promise<Response> {
  const body = await readInput<NotifyBody | undefined>(request, issuer.config.maxBodyBytes, { optional: true })
  return json({ data: await issuer.issuances.notify(club, numericId(request), body) }, 202)
}

/** Bulk revoke (docs/api.md §4.7b): `{ issuanceIds, reason }`, a result per id. */
export async function revokeMany({ issuer, request, club, principal }: ScopedCall): Promise<Response> {
  const body = await readInput<RevokeManyBody>(request, issuer.config.maxBodyBytes)
  const outcome = await issuer.issuances.revokeMany(club, body, idempotencyOf(request, principal.clientId))
  return idempotentResponse(outcome.result, outcome)
}
