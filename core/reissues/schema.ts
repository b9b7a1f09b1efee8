import * as v from 'valibot'
import { isCalendarDate } from '../validation/date.ts'
import { optionalText, requiredText } from '../validation/text.ts'
import { textCharacters } from '../validation/plain-text.ts'
import { evidenceSchema } from '../issuances/schema.ts'
import { ISSUE_MODES } from '../issuances/issuance.ts'

/** At most this many issuances per bulk reissue (docs/api.md §4.17); more is 422 `validation-failed` (`too-many-issuances`). */
export const MAX_REISSUE_IDS = 1000

const isoDateTime = v.pipe(
  v.string('must-be-string'),
  v.isoTimestamp('invalid-date-time'),
  v.check(isCalendarDate, 'invalid-date-time'),
  v.transform((value) => Date.parse(value)),
)
/** A new expiry, or `null` for none; absent keeps the issuance's. */
const expiresAt = v.optional(v.nullable(isoDateTime))

/**
 * The body of `POST …/issuances/{id}/reissue` (docs/api.md §4.17, docs/decisions/0046-reissue.md): the
 * members to change, each optional; `template: "current"` engraves the template as it is now.
 */
export const reissueRequestSchema = v.strictObject(
  {
    name: v.optional(requiredText(200)),
    email: v.optional(v.pipe(v.string('must-be-string'), v.trim(), ...textCharacters('single-line'), v.maxLength(254, 'too-long'), v.email('invalid-email'))),
    externalUserId: v.optional(
      v.pipe(v.string('must-be-string'), v.trim(), ...textCharacters('single-line'), v.minLength(1, 'required'), v.maxLength(200, 'too-long')),
    ),
    expiresAt,
    evidences: v.optional(v.pipe(v.array(evidenceSchema, 'must-be-array'), v.maxLength(20, 'too-many-evidences'))),
    mode: v.optional(v.picklist(ISSUE_MODES, 'unknown-mode'), 'none'),
    reason: v.optional(optionalText(500, 'multi-line')),
    template: v.optional(v.literal('current', 'unknown-template-choice')),
  },
  'unknown-field',
)
export type ReissueRequest = v.InferOutput<typeof reissueRequestSchema>

const issuanceIdSchema = v.pipe(v.number('must-be-number'), v.integer('must-be-integer'), v.minValue(1, 'must-be-positive'))

/** The body of `POST …/issuances/reissue`: a season's renewal, each issuance a new version with these values. */
export const bulkReissueRequestSchema = v.strictObject(
  {
    issuanceIds: v.pipe(v.array(issuanceIdSchema, 'must-be-array'), v.minLength(1, 'required'), v.maxLength(MAX_REISSUE_IDS, 'too-many-issuances')),
    expiresAt,
    mode: v.optional(v.picklist(ISSUE_MODES, 'unknown-mode'), 'none'),
    reason: v.optional(optionalText(500, 'multi-line')),
    template: v.optional(v.literal('current', 'unknown-template-choice')),
  },
  'unknown-field',
)
export type BulkReissueRequest = v.InferOutput<typeof bulkReissueRequestSchema>
