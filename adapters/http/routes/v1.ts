import { readInput } from '../body.ts'
import type { V1FormCreateBody, V1FormPatchBody, V1IssueBody } from '../../../core/inputs.ts'
import { idempotencyOf, idempotentResponse, json } from '../responses.ts'
import { numericId } from '../router.ts'
import type { ScopedCall } from '../operation.ts'

/*
 * The v1 surface (docs/api.md §4.12, docs/decisions/0022-v1.md): bearer tokens as on v2, the club taken from the token
 * (the router binds `club` to it). Errors are problem documents as on v2.
 */

export async function readForm({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json(await issuer.v1.readForm(club, numericId(request)))
}

export async function createForm({ issuer, request, club }: ScopedCall): Promise<Response> {
  const form = await issuer.v1.createForm(club, await readInput<V1FormCreateBody>(request, issuer.config.maxBodyBytes))
  return json(form, 201, { location: `${issuer.config.urls.base}/v1/forms/${form.id}` })
}

export async function patchForm({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json(await issuer.v1.patchForm(club, numericId(request), await readInput<V1FormPatchBody>(request, issuer.config.maxBodyBytes)))
}

export async function bulkIssue({ issuer, request, club, principal }: ScopedCall): Promise<Response> {
  const body = await readInput<V1IssueBody>(request, issuer.config.maxBodyBytes)
  const outcome = await issuer.v1.issue(club, body, idempotencyOf(request, principal.clientId))
  return idempotentResponse(outcome.result, outcome)
}

export async function readIssuance({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json(await issuer.v1.readIssuance(club, numericId(request)))
}
