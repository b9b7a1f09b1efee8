import * as v from 'valibot'
import { MAX, prefixRule, tagList, templateType } from './fields.ts'
import { legacyRequirementList } from './requirement-input.ts'
import { insertTemplate } from './create.ts'
import { isoDateTimeText } from '../validation/date.ts'
import { parseInput } from '../validation/parse-input.ts'
import { optionalText, requiredText } from '../validation/text.ts'
import { optionalUrl } from '../validation/url.ts'
import type { IssuerContext } from '../context.ts'
import type { TemplateDraft } from './draft.ts'

const integer = v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(1, 'must-be-integer'))

/**
 * The body of legacy form creation (docs/api.md §2.12), with the field rules every surface shares: the
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

/**
 * A legacy form body (docs/api.md §2.12) as a draft. Two rules are the legacy operation's own: a form sent
 * without a description takes its name as the description, since every template has one (docs/api.md §4.10
 * rule 1), and a program given here is public, since the legacy operation had no such switch and
 * showed every program.
 */
export function draftFromLegacy(body: LegacyFormInput): TemplateDraft {
  const hasProgram = body.program_name || body.program_type || body.program_url
  return {
    name: body.name,
    type: body.type,
    description: body.description ?? body.name,
    tag: body.tags,
    requirements: body.requirements,
    program: hasProgram ? { name: body.program_name, url: body.program_url, type: body.program_type, isPublic: true } : undefined,
    prefix: body.prefix,
    courseBeginAt: body.course_begin_at,
    courseEndAt: body.course_end_at,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId,
  }
}

/** Creates a form from the legacy operation (docs/api.md §4.13). */
export async function createLegacyForm(ctx: IssuerContext, club: string, input: unknown): Promise<{ achievementFormId: number }> {
  const { template } = await insertTemplate(ctx, club, draftFromLegacy(parseInput(legacyFormSchema, input)))
  return { achievementFormId: template.id }
}
