import { ProblemError } from '../errors.ts'
import * as v from 'valibot'
import { issueBatch } from './issue.ts'
import { readIssuance } from './read.ts'
import { ISSUANCE_STATUSES } from './present.ts'
import type { BatchResult } from './batch-result.ts'
import type { IssuerContext } from '../context.ts'
import type { IdempotencyClaim } from '../idempotency/claim.ts'
import { REQUIREMENT_TYPES } from '../achievements/template.ts'

/**
 * v1 bulk issue (docs/api.md §4.12): `{ formId, recipients[], mode?, expiresAt? }`, the same batch as v2
 * underneath, so its result is v2's batch result (stored as such under `claim`); `v1BatchResultOf`
 * shapes it as v1 answers it. `issued[].id` is readable at once on `GET /v1/achievements/{id}`.
 */
export async function issueV1(ctx: IssuerContext, club: string, input: unknown, claim: IdempotencyClaim | null = null): Promise<BatchResult> {
  // A body that is not an object goes on as it is, so that it is refused as on v2 (`must-be-object`).
  const isObject = typeof input === 'object' && input !== null && !Array.isArray(input)
  let body = input
  if (isObject) {
    const { formId, ...rest } = input as Record<string, unknown>
    body = { ...rest, achievementFormId: formId }
  }
  try {
    return await issueBatch(ctx, club, body, claim)
  } catch (error) {
    throw renamePath(error)
  }
}

/** The v1 bulk-issue answer (docs/api.md §4.12): a recipient v2 would skip is in `failed[]` with the skip's error. */
export const v1BatchResultSchema = v.object({
  issued: v.array(v.object({ id: v.number(), ref: v.string() })),
  failed: v.array(
    v.object({
      ref: v.string(),
      status: v.picklist(['skipped', 'failed']),
      error: v.object({ code: v.string(), message: v.string(), path: v.optional(v.string()), resourceId: v.optional(v.number()) }),
    }),
  ),
})
export type V1BatchResult = v.InferOutput<typeof v1BatchResultSchema>

/** The v1 answer of a batch result: a recipient v2 would skip is in `failed[]` with the skip's code, since v1 has no third list. */
export function v1BatchResultOf(result: BatchResult): V1BatchResult {
  return {
    issued: result.results.flatMap((item) => (item.status === 'issued' ? [{ id: item.resourceId, ref: item.ref }] : [])),
    failed: result.results.flatMap((item) => (item.status === 'issued' ? [] : [{ ref: item.ref, status: item.status, error: item.error }])),
  }
}

/** Field errors name the v1 member, `formId`, not v2's `achievementFormId`. */
function renamePath(error: unknown): unknown {
  if (error instanceof ProblemError && error.errors) {
    for (const fieldError of error.errors) if (fieldError.path === 'achievementFormId') fieldError.path = 'formId'
  }
  return error
}

/** An issuance as v1 reads it (docs/api.md §4.12, §9: keys are only ever added). */
export const v1IssuanceViewSchema = v.object({
  id: v.number(),
  formId: v.number(),
  status: v.picklist(ISSUANCE_STATUSES),
  recipient: v.object({ externalUserId: v.nullable(v.string()), name: v.string(), email: v.string() }),
  createdAt: v.string(),
  expiresAt: v.nullable(v.string()),
  revokedAt: v.nullable(v.string()),
  form: v.object({
    id: v.number(),
    name: v.string(),
    nameEn: v.nullable(v.string()),
    description: v.string(),
    descriptionEn: v.nullable(v.string()),
    requirements: v.array(
      v.object({ id: v.number(), type: v.nullable(v.picklist(REQUIREMENT_TYPES)), description: v.nullable(v.string()), url: v.nullable(v.string()) }),
    ),
  }),
  evidences: v.array(v.object({ url: v.nullable(v.string()), name: v.nullable(v.string()), description: v.nullable(v.string()), isPublic: v.boolean() })),
  /** `null` until the credential exists. */
  credential: v.nullable(v.object({ id: v.string(), shareUrl: v.string(), verifyUrl: v.string() })),
})
export type V1IssuanceView = v.InferOutput<typeof v1IssuanceViewSchema>

/** The v1 issuance read: the v2 detail's data in the v1 shape, `credential { id, shareUrl, verifyUrl }` or null. */
export async function readIssuanceV1(ctx: IssuerContext, club: string, id: number): Promise<V1IssuanceView> {
  const detail = await readIssuance(ctx, club, id)
  return {
    id: detail.id,
    formId: detail.achievementId,
    status: detail.status,
    recipient: detail.recipient,
    createdAt: detail.createdAt,
    expiresAt: detail.expiresAt,
    revokedAt: detail.revokedAt,
    form: {
      id: detail.form.id,
      name: detail.form.name,
      nameEn: detail.form.nameEn,
      description: detail.form.description,
      descriptionEn: detail.form.descriptionEn,
      requirements: detail.form.requirements.map(({ id, type, description, url }) => ({ id, type, description, url })),
    },
    evidences: detail.evidences.map(({ url, name, description, isPublic }) => ({ url, name, description, isPublic })),
    credential: detail.credential ? { id: detail.credential.id, shareUrl: detail.credential.shareUrl, verifyUrl: detail.credential.verifyUrl } : null,
  }
}
