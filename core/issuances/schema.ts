import * as v from 'valibot'
import { isCalendarDate } from '../validation/date.ts'
import { jsonObject } from '../validation/json-object.ts'
import { optionalText, requiredText } from '../validation/text.ts'
import { optionalUrl } from '../validation/url.ts'
import { ISSUE_MODES } from './issuance.ts'
import { textCharacters } from '../validation/plain-text.ts'

/** At most this many recipients per issue call (docs/decisions/0013-issuing.md); more is 422 `too-many-recipients`. */
export const MAX_RECIPIENTS = 1000

const isoDateTime = v.pipe(
  v.string('must-be-string'),
  v.isoTimestamp('invalid-date-time'),
  v.check(isCalendarDate, 'invalid-date-time'),
  v.transform((value) => Date.parse(value)),
)

/** The request of `POST .../issuances` (docs/api.md §4.3); recipients are checked one by one, see `recipientSchema`. */
export const issueRequestSchema = v.strictObject(
  {
    achievementFormId: v.pipe(v.number('must-be-number'), v.integer('must-be-integer'), v.minValue(1, 'must-be-positive')),
    mode: v.optional(v.picklist(ISSUE_MODES, 'unknown-mode'), 'none'),
    recipients: v.pipe(v.array(v.unknown(), 'must-be-array'), v.minLength(1, 'required')),
    expiresAt: v.optional(isoDateTime),
  },
  'unknown-field',
)

/**
 * The v1 bulk-issue request (docs/api.md §4.12): v2's request with `formId` for `achievementFormId`. v1.ts renames
 * the member and validates with `issueRequestSchema`; this shape is what the OpenAPI document shows.
 */
export const v1IssueRequestSchema = v.strictObject(
  (({ achievementFormId, ...rest }) => ({ formId: achievementFormId, ...rest }))(issueRequestSchema.entries),
  'unknown-field',
)

export const evidenceSchema = jsonObject({
  url: optionalUrl,
  name: optionalText(200),
  description: optionalText(2000, 'multi-line'),
  isPublic: v.optional(v.boolean('must-be-boolean'), false),
})

/** One recipient entry (docs/api.md §4.3 plus the optional `evidences[]` and `expiresAt` of docs/decisions/0013-issuing.md). */
export const recipientSchema = jsonObject({
  externalUserId: v.optional(
    v.pipe(v.string('must-be-string'), v.trim(), ...textCharacters('single-line'), v.minLength(1, 'required'), v.maxLength(200, 'too-long')),
  ),
  name: requiredText(200),
  email: v.pipe(v.string('must-be-string'), v.trim(), ...textCharacters('single-line'), v.maxLength(254, 'too-long'), v.email('invalid-email')),
  evidences: v.optional(v.pipe(v.array(evidenceSchema, 'must-be-array'), v.maxLength(20, 'too-many-evidences')), []),
  expiresAt: v.optional(isoDateTime),
})

export type IssueRequest = v.InferOutput<typeof issueRequestSchema>
export type RecipientInput = v.InferOutput<typeof recipientSchema>
