import * as v from 'valibot'
import { hasDescriptionOrUrl, isoDateTimeText, jsonObject, optionalText, optionalUrl, prefixRule, requiredText, requirementOrder, requirementType, tagList, MAX, REQUIREMENTS_MAX } from './fields.ts'
import { parseInput } from './schema.ts'
import { insertTemplate } from './create.ts'
import { TEMPLATE_TYPES } from './template.ts'
import type { IssuerContext } from '../context.ts'

const integer = v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(1, 'must-be-integer'))

const legacyRequirement = v.pipe(
  jsonObject({
    type: requirementType,
    url: optionalUrl,
    description: optionalText(MAX.requirement, 'multi-line'),
    order: v.optional(requirementOrder),
  }),
  v.check((requirement) => hasDescriptionOrUrl(requirement), 'requirement-empty'),
)

/**
 * The body of legacy form creation (spec §2.12), with the field rules every surface shares: the
 * created form is an ordinary template. Members the legacy API never knew are ignored, as it did.
 * (`parseInput` refuses a body that is not an object.)
 */
export const legacyFormSchema = v.object({
    // The name rule of every surface: not blank, at most 200 characters (code points, not UTF-16 units).
    name: requiredText(MAX.name),
    description: v.optional(optionalText(MAX.description, 'multi-line')),
    type: v.picklist(TEMPLATE_TYPES, 'unknown-type'),
    tags: v.optional(tagList),
    prefix: v.optional(prefixRule),
    program_name: v.optional(optionalText(MAX.programName)),
    program_type: v.optional(optionalText(MAX.programName)),
    program_url: v.optional(optionalUrl),
    course_begin_at: v.optional(isoDateTimeText),
    course_end_at: v.optional(isoDateTimeText),
    achievementCertificateDesignId: v.optional(integer),
    achievementBadgeDesignId: integer,
    requirements: v.optional(v.pipe(v.array(legacyRequirement, 'must-be-array'), v.maxLength(REQUIREMENTS_MAX, 'too-many-requirements'))),
})

/**
 * Creates a form from the legacy operation (spec §4.13). A form sent without a description takes its
 * name as the description, since every template has one (spec §4.10 rule 1). A program given here is
 * public: the legacy operation had no such switch and showed every program.
 */
export async function createLegacyForm(ctx: IssuerContext, club: string, input: unknown): Promise<{ achievementFormId: number }> {
  const body = parseInput(legacyFormSchema, input)
  const hasProgram = body.program_name || body.program_type || body.program_url
  const { template } = await insertTemplate(ctx, club, {
    name: body.name,
    nameEn: null,
    type: body.type,
    description: body.description ?? body.name,
    descriptionEn: null,
    imprintDescription: null,
    imprintDescriptionEn: null,
    tag: body.tags ?? [],
    requirements: (body.requirements ?? []).map((requirement, index) => ({
      type: requirement.type ?? null,
      description: requirement.description ?? null,
      url: requirement.url ?? null,
      order: requirement.order ?? index,
    })),
    program: hasProgram ? { name: body.program_name ?? null, url: body.program_url ?? null, type: body.program_type ?? null, isPublic: true } : null,
    prefix: body.prefix ?? null,
    courseBeginAt: body.course_begin_at ?? null,
    courseEndAt: body.course_end_at ?? null,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId ?? null,
  })
  return { achievementFormId: template.id }
}
