import * as v from 'valibot'
import { MAX, prefixRule, tagList, templateType } from './fields.ts'
import { legacyRequirementList } from './requirement-input.ts'
import { draftFromLegacy } from './surfaces/legacy.ts'
import { insertTemplate } from './create.ts'
import { isoDateTimeText } from '../validation/date.ts'
import { parseInput } from '../validation/parse-input.ts'
import { optionalText, requiredText } from '../validation/text.ts'
import { optionalUrl } from '../validation/url.ts'
import type { IssuerContext } from '../context.ts'

const integer = v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(1, 'must-be-integer'))

/**
 * The body of legacy form creation (spec §2.12), with the field rules every surface shares: the
 * created form is an ordinary template. Members the legacy API never knew are ignored, as it did.
 * (`parseInput` refuses a body that is not an object.)
 */
export const legacyFormSchema = v.object({
  // The name rule of every surface: not blank, at most 200 characters (code points, not UTF-16 units).
  name: requiredText(MAX.name),
  description: v.optional(optionalText(MAX.description, 'multi-line')),
  type: templateType,
  tags: v.optional(tagList),
  prefix: v.optional(prefixRule),
  program_name: v.optional(optionalText(MAX.programName)),
  program_type: v.optional(optionalText(MAX.programName)),
  program_url: v.optional(optionalUrl),
  course_begin_at: v.optional(isoDateTimeText),
  course_end_at: v.optional(isoDateTimeText),
  achievementCertificateDesignId: v.optional(integer),
  achievementBadgeDesignId: integer,
  requirements: v.optional(legacyRequirementList),
})

export type LegacyFormInput = v.InferOutput<typeof legacyFormSchema>

/** Creates a form from the legacy operation (spec §4.13). */
export async function createLegacyForm(ctx: IssuerContext, club: string, input: unknown): Promise<{ achievementFormId: number }> {
  const { template } = await insertTemplate(ctx, club, draftFromLegacy(parseInput(legacyFormSchema, input)))
  return { achievementFormId: template.id }
}
