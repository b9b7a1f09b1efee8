import { readInput } from '../body.ts'
import type { IssueBody, RevokeBody } from '../../../core/inputs.ts'
import { idempotencyOf, idempotentResponse, json } from '../responses.ts'
import { listQuery, numericId } from '../router.ts'
import type { ScopedCall } from '../operation.ts'

/** Issuing, issuance reads, credentials and the event feed (docs/api.md §4.3 to §4.9). */
export async function issue({ issuer, request, club, principal }: ScopedCall): Promise<Response> {
  const body = await readInput<IssueBody>(request, issuer.config.maxBodyBytes)
  const outcome = await issuer.issuances.issue(club, body, idempotencyOf(request, principal.clientId))
  return idempotentResponse(outcome.result, outcome)
}

/** The body `{ reason }` is optional (docs/decisions/0010-lifecycle.md). */
export async function revoke({ issuer, request, club, principal }: ScopedCall): Promise<Response> {
  const body = await readInput<RevokeBody | undefined>(request, issuer.config.maxBodyBytes, { optional: true })
  const outcome = await issuer.issuances.revoke(club, numericId(request), body, idempotencyOf(request, principal.clientId))
  return idempotentResponse({ data: outcome.detail }, outcome)
}

export async function listIssuances({ issuer, request, club }: ScopedCall): Promise<Response> {
  const search = new URL(request.url).searchParams
  const filters = { achievementId: search.get('achievementId'), status: search.get('status'), claimed: search.get('claimed') }
  return json(await issuer.issuances.list(club, { ...listQuery(request), ...filters }))
}

export async function readIssuance({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json({ data: await issuer.issuances.read(club, numericId(request)) })
}

export async function readCredential({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json({ data: await issuer.issuances.credential(club, numericId(request)) })
}

export async function listEvents({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json(await issuer.events.list(club, listQuery(request)))
}
