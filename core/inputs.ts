import type * as v from 'valibot'
import type { templateCreateSchema, templatePatchSchema } from './achievements/schema.ts'
import type { v1FormCreateSchema, v1FormPatchSchema } from './achievements/v1-form.ts'
import type { legacyFormSchema } from './achievements/legacy-form.ts'
import type { designCreateSchema, designPatchSchema } from './designs/schema.ts'
import type { issueRequestSchema, recipientSchema } from './issuances/schema.ts'
import type { revokeRequestSchema } from './issuances/revoke.ts'

/**
 * The typed inputs of the library API: the input side of the valibot schemas each operation validates
 * with. The operations take `unknown` (a body straight from a request goes there too) and check it at
 * run time; in-process callers annotate what they build with these types to have the compiler check it
 * first: `const body: TemplateCreateBody = { name, description }`.
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
