/**
 * The shapes the club API reads and writes, as the client sees them. Read shapes are the server's own
 * types, each `v.InferOutput` of the valibot schema the OpenAPI document's response schema is converted
 * from (imported as types only, so the client carries no server code); test/client/types.test.ts holds
 * each to its schema and test/http/openapi/responses.test.ts holds the answers to the document. Write
 * shapes are spelled out here for integrators, and a test holds them to the server's valibot schemas. Write shapes are type
 * aliases, not interfaces, so that they fit where a JSON object (`Record<string, unknown>`) is expected.
 */
import type { ClubRoot } from '../core/clubs/read-root.ts'
import type { TemplateView } from '../core/achievements/present.ts'
import type { RequirementType, TemplateType } from '../core/achievements/template.ts'
import type { IssuanceDetail as CoreIssuanceDetail, IssuanceItem } from '../core/issuances/present.ts'
import type { BatchResult as CoreBatchResult } from '../core/issuances/batch-result.ts'
import type { RevokeManyResult as CoreRevokeManyResult } from '../core/issuances/revoke-many.ts'
import type { IssueMode } from '../core/issuances/issuance.ts'
import type { CredentialView } from '../core/issuances/read.ts'
import type { EventView } from '../core/events/list.ts'
import type { DesignView } from '../core/designs/present.ts'
import type { DesignKind, ImageType } from '../core/designs/design.ts'
import type { Verdict as CoreVerdict } from '../core/verification/verify-issuance.ts'
import type { Page as CorePage } from '../core/lists/cursor.ts'
import type { BulkReissueBody as CoreBulkReissueBody, ReissueBody as CoreReissueBody } from '../core/inputs.ts'
import type { BulkReissueResult as CoreBulkReissueResult } from '../core/reissues/reissue.ts'
import type { ScopeName as CoreScopeName } from '../core/scopes.ts'

/** Parts of the read shapes, by the server's names. */
export type { CredentialPointer, IssuanceStatus } from '../core/issuances/present.ts'
export type { BatchItem } from '../core/issuances/batch-result.ts'
export type { Alignment, CoIssuerView } from '../core/achievements/present.ts'
export type { FieldError } from '../core/errors.ts'
export type { RequirementType, TemplateType, IssueMode, DesignKind, ImageType }

/** A scope name of docs/api.md §2.2 (`issuance:write`...); the client requests it as `svc:openapi:<name>`. */
export type ScopeName = CoreScopeName

/** A page of a cursor list: `meta.nextCursor` is `null` on the last page (docs/decisions/0009-lists.md). */
export type Page<T> = CorePage<T>

/** The club root (docs/api.md §4.2). */
export type Club = ClubRoot

/** An achievement template as read, derived fields included (docs/api.md §2.3). */
export type Achievement = TemplateView

/** An item of the issuance list (docs/api.md §2.6): `credentialId` is `null` until the credential exists. */
export type Issuance = IssuanceItem

/** The issuance detail (docs/api.md §2.6): recipient, `form` as issued, evidences, `credential` pointer or `null`. */
export type IssuanceDetail = CoreIssuanceDetail

/** The batch result of an issue call (docs/api.md §2.9). */
export type BatchResult = CoreBatchResult

/** The credential read (docs/api.md §2.8): `{ id, format, jwt, payload }`, `payload` the decoded JWT claims. */
export type CredentialRead = CredentialView

/** An event of the club's feed (docs/api.md §2.10). */
export type ClubEvent = EventView

/** A design (badge image or certificate layout). */
export type Design = DesignView

/** The public verification verdict (docs/api.md §2.11); `statusCode` 404 when there is no credential. */
export type Verdict = CoreVerdict

/** One requirement as written (docs/api.md §2.4): a description or a url, or both; the array position is the order. */
export type RequirementWrite = {
  type?: RequirementType | null
  description?: string | null
  url?: string | null
}

/**
 * The writable members of a template (docs/api.md §2.3). A template as read may be sent back as it is:
 * the server ignores its read-only members.
 */
export type AchievementWrite = {
  name?: string
  /** Latin script only; `''` is stored as none. */
  nameEn?: string | null
  type?: TemplateType
  /** Cannot be emptied. */
  description?: string
  descriptionEn?: string | null
  /** The engraved description; follows `description` while it mirrors it (docs/api.md §4.10 rule 7). */
  imprintDescription?: string | null
  imprintDescriptionEn?: string | null
  /** Trimmed and de-duplicated; an empty item or one with a comma is 422 `tag-contains-comma`. */
  tag?: string[]
  /** Sending `requirements` replaces them all (docs/api.md §4.10 rule 5). */
  criteria?: { requirements?: RequirementWrite[] }
  /** Merged by patch: only the keys sent change. */
  program?: { name?: string | null; url?: string | null; isPublic?: boolean } | null
  achievementBadgeDesignId?: number | null
  achievementCertificateDesignId?: number | null
}

/** The body of a template create: `name` and `description` are required. */
export type AchievementCreate = AchievementWrite & { name: string; description: string }

/** The body of a template patch: any subset of the writable members. */
export type AchievementPatch = AchievementWrite

/** Evidence of a recipient; only public evidence is engraved into the credential. */
export type EvidenceWrite = {
  url?: string | null
  name?: string | null
  description?: string | null
  isPublic?: boolean
}

/** One recipient of an issue call (docs/api.md §4.3, docs/decisions/0013-issuing.md). */
export type RecipientWrite = {
  /** Your own id of the person; the batch item's `ref`, and the key of "already holds it". */
  externalUserId?: string
  name: string
  email: string
  evidences?: EvidenceWrite[]
  /** ISO 8601; becomes the credential's `validUntil`. */
  expiresAt?: string
}

/** The body of a reissue (docs/api.md §4.17): the members to change, each optional. */
export type ReissueBody = CoreReissueBody

/** The body of a bulk reissue (docs/api.md §4.17): up to 1,000 issuance ids and the values for all. */
export type BulkReissueBody = CoreBulkReissueBody

/** The bulk reissue's answer: a result per id and the counts. */
export type BulkReissueResult = CoreBulkReissueResult

/** The body of an issue call (docs/api.md §4.3): at most 1,000 recipients. */
export type IssueBody = {
  achievementFormId: number
  /** `email` notifies each recipient; `none` (the default) issues silently. */
  mode?: IssueMode
  recipients: RecipientWrite[]
  /** ISO 8601, for every recipient without its own. */
  expiresAt?: string
}

/** An uploaded image: `data` in base64. */
export type ImageWrite = {
  mediaType: ImageType
  data: string
}

/** The layout of a certificate design. */
export type CertificateLayoutWrite = {
  orientation?: 'landscape' | 'portrait'
  /** `#rrggbb` */
  primaryColor?: string
  textColor?: string
  backgroundColor?: string
  logo?: ImageWrite | null
  show?: { description?: boolean; criteria?: boolean; coIssuers?: boolean; qrCode?: boolean }
}

/** The body of a design create. */
export type DesignCreate = {
  kind: DesignKind
  name: string
  image?: ImageWrite | null
  layout?: CertificateLayoutWrite
}

/** The body of a design patch; `kind` cannot change. */
export type DesignPatch = {
  kind?: DesignKind
  name?: string
  image?: ImageWrite | null
  layout?: CertificateLayoutWrite
}

/** A format of the certificate file (docs/api.md §4.6): `pdf`, or the badge baked with the credential. */
export type FileFormat = 'pdf' | 'png' | 'svg'

/** The certificate file of an issuance, as downloaded. */
export type CertificateFile = {
  /** As the server sent it, for example `application/pdf`. */
  contentType: string
  /** The name from `Content-Disposition` (its UTF-8 `filename*` when sent), or `null`. */
  filename: string | null
  bytes: Uint8Array
}

/** The answer of a bulk revoke (docs/api.md §4.7b): a result per id and the summary, plus the exchange as `IssueResult`'s. */
export interface RevokeManyResult extends CoreRevokeManyResult {
  idempotencyKey: string
  replayed: boolean
}

/** The issue call's answer: the batch result, plus what the client knows of the exchange. */
export interface IssueResult extends BatchResult {
  /** The `Idempotency-Key` sent: yours, or the one the client made. Repeat it to replay this answer. */
  idempotencyKey: string
  /** Whether the server replayed an earlier answer to this key (`Idempotent-Replayed: true`). */
  replayed: boolean
}
