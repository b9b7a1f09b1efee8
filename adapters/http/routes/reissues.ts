import { readInput } from '../body.ts'
import type { BulkReissueBody, ReissueBody } from '../../../core/inputs.ts'
import { idempotencyOf, idempotentResponse } from '../responses.ts'
import { numericId } from '../router.ts'
import type { ScopedCall } from '../operation.ts'

/** Reissue one issuance (docs/api.md §4.17); the body may be left out (a re-signing with the values as they are). */
export async function reissue({ issuer, request, club, principal }: ScopedCall): Promise<Response> {
  const body = await readInput<ReissueBody | undefined>(request, issuer.config.maxBodyBytes, { optional: true })
  const outcome = await issuer.issuances.reissue(club, numericId(request), body, idempotencyOf(request, principal.clientId))
  return idempotentResponse({ data: outcome.detail }, outcome)
}

/** Reissue many issuances with one expiry (docs/api.md §4.17). */
export async function reissueMany({ issuer, request, club, principal }: ScopedCall): Promise<Response> {
  const body = await readInput<BulkReissueBody>(request, issuer.config.maxBodyBytes)
  const outcome = await issuer.issuances.reissueMany(club, body, idempotencyOf(request, principal.clientId))
  return idempotentResponse(outcome.result, outcome)
}
