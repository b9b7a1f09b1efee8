import type * as v from 'valibot'
import type { templateCreateSchema, templatePatchSchema } from './achievements/schema.ts'
import type { v1FormCreateSchema, v1FormPatchSchema } from './achievements/v1-form.ts'
import type { legacyFormSchema } from './achievements/legacy-form.ts'
import type { designCreateSchema, designPatchSchema } from './designs/schema.ts'
import type { issueRequestSchema, recipientSchema } from './issuances/schema.ts'
import type { revokeRequestSchema } from './issuances/revoke.ts'
import type { revokeManyRequestSchema } from './issuances/revoke-many.ts'
import type { notifyRequestSchema } from './issuances/notify.ts'
import type { coIssuerRemoveSchema, coIssuerSchema } from './achievements/co-issuers.ts'
import type { bulkReissueRequestSchema, reissueRequestSchema } from './reissues/schema.ts'

/**
 * The typed inputs of the library API (`CoreIssuer`, core/core-issuer.ts): the input side of the valibot
 * schemas each operation validates with, so that a library caller gets a compile error for a missing or
 * mistyped member. The operations still validate what they receive at run time: JavaScript callers
 * exist, and the HTTP face passes request bodies through unseen by the types.
 */
export type TemplateCreateBody = v.InferInput<typeof templateCreateSchema>
export type TemplatePatchBody = v.InferInput<typeof templatePatchSchema>
export type V1FormCreateBody = v.InferInput<typeof v1FormCreateSchema>
export type V1FormPatchBody = v.InferInput<typeof v1FormPatchSchema>
export type LegacyFormBody = v.InferInput<typeof legacyFormSchema>
export type DesignCreateBody = v.InferInput<typeof designCreateSchema>
export type DesignPatchBody = v.InferInput<typeof designPatchSchema>
export type RecipientBody = v.InferInput<typeof recipientSchema>
export type IssueBody = Omit<v.InferInput<typeof issueRequestSchema>, 'recipients'> & { recipients: RecipientBody[] }
export type V1IssueBody = Omit<IssueBody, 'achievementFormId'> & { formId: number }
export type RevokeBody = v.InferInput<typeof revokeRequestSchema>
export type RevokeManyBody = v.InferInput<typeof revokeManyRequestSchema>
export type NotifyBody = v.InferInput<typeof notifyRequestSchema>
export type CoIssuerAddBody = v.InferInput<typeof coIssuerSchema>
export type CoIssuerRemoveBody = v.InferInput<typeof coIssuerRemoveSchema>
export type ReissueBody = v.InferInput<typeof reissueRequestSchema>
export type BulkReissueBody = v.InferInput<typeof bulkReissueRequestSchema>
