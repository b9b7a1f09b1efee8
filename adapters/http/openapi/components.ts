import { coIssuerViewSchema, templateViewSchema } from '../../../core/achievements/present.ts'
import { v1FormSchema } from '../../../core/achievements/v1-form.ts'
import { clubRootSchema } from '../../../core/clubs/read-root.ts'
import { designViewSchema } from '../../../core/designs/present.ts'
import { didDocumentSchema } from '../../../core/did-documents/did-document.ts'
import { eventViewSchema } from '../../../core/events/present.ts'
import { batchItemSchema, batchResultSchema } from '../../../core/issuances/batch-result.ts'
import { credentialPointerSchema, issuanceDetailSchema, issuanceItemSchema } from '../../../core/issuances/present.ts'
import { credentialViewSchema } from '../../../core/issuances/read.ts'
import { v1BatchResultSchema, v1IssuanceViewSchema } from '../../../core/issuances/v1.ts'
import { tokenResponseSchema } from '../../../core/tokens/issue.ts'
import { verdictSchema } from '../../../core/verification/verify-issuance.ts'
import { legacyErrorSchema } from '../legacy-error.ts'
import { oauthErrorSchema } from '../oauth-error.ts'
import { problemSchema } from '../problem.ts'

/**
 * The response shapes the document names in `components.schemas` and refers to by `$ref`, by the names
 * `clubcred/client` gives them (client/types.ts). Each is the valibot schema core types its answer with.
 */
export const RESPONSE_COMPONENTS = {
  Club: clubRootSchema,
  Achievement: templateViewSchema,
  CoIssuer: coIssuerViewSchema,
  Issuance: issuanceItemSchema,
  IssuanceDetail: issuanceDetailSchema,
  CredentialPointer: credentialPointerSchema,
  BatchResult: batchResultSchema,
  BatchItem: batchItemSchema,
  CredentialRead: credentialViewSchema,
  ClubEvent: eventViewSchema,
  Design: designViewSchema,
  Verdict: verdictSchema,
  V1Form: v1FormSchema,
  V1Issuance: v1IssuanceViewSchema,
  V1BatchResult: v1BatchResultSchema,
  Token: tokenResponseSchema,
  DidDocument: didDocumentSchema,
  Problem: problemSchema,
  OAuthError: oauthErrorSchema,
  LegacyError: legacyErrorSchema,
}
