import * as v from 'valibot'
import { MAX, designId, prefixRule, tagList } from './fields.ts'
import { ignored } from '../validation/ignored.ts'
import { orderedRequirementList, v1ProgramInput } from './requirement-input.ts'
import { textChanges, textEntries } from './texts.ts'
import { insertTemplate } from './create.ts'
import { updateTemplate } from './patch.ts'
import { orderRequirements } from './order-requirements.ts'
import { requireTemplate } from './require.ts'
import { requireClub } from '../clubs/require.ts'
import { isoDateTimeText } from '../validation/date.ts'
import { jsonObject } from '../validation/json-object.ts'
import { parseInput } from '../validation/parse-input.ts'
import { requiredText } from '../validation/text.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import { REQUIREMENT_TYPES, TEMPLATE_TYPES, type AchievementTemplate } from './template.ts'
import type { TemplateChanges, TemplateDraft } from './draft.ts'

/**
 * The v1 form (docs/api.md §4.12, §9): the same template as v2 in the older shape: `tags`, a `requirements[]`
 * array whose `order` the client sends, `institutions[]`. Built from the same field rules as v2.
 */
const entries = {
  ...textEntries,
  tags: v.optional(tagList),
  requirements: v.optional(orderedRequirementList),
  program: v.optional(v1ProgramInput),
  prefix: v.optional(v.nullable(prefixRule)),
  courseBeginAt: v.optional(v.nullable(isoDateTimeText)),
  courseEndAt: v.optional(v.nullable(isoDateTimeText)),
  achievementBadgeDesignId: v.optional(designId),
  achievementCertificateDesignId: v.optional(designId),
  id: ignored,
  institutions: ignored,
  issuedCount: ignored,
  createdAt: ignored,
  updatedAt: ignored,
}

export const v1FormCreateSchema = jsonObject({ ...entries, name: requiredText(MAX.name), description: requiredText(MAX.description, 'multi-line') })
export const v1FormPatchSchema = jsonObject(entries)

export type V1FormCreateInput = v.InferOutput<typeof v1FormCreateSchema>
export type V1FormPatchInput = v.InferOutput<typeof v1FormPatchSchema>

/** A v1 body (docs/api.md §4.12) as changes: `tags`, `requirements[]` with their `order`, course dates. */
export function changesFromV1(body: V1FormPatchInput): TemplateChanges {
  return {
    ...textChanges(body),
    tag: body.tags,
    requirements: body.requirements,
    program: body.program,
    prefix: body.prefix,
    courseBeginAt: body.courseBeginAt,
    courseEndAt: body.courseEndAt,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId,
  }
}

export function draftFromV1(body: V1FormCreateInput): TemplateDraft {
  return { ...changesFromV1(body), name: body.name, description: body.description }
}

export async function createV1Form(ctx: IssuerContext, club: string, input: unknown) {
  const { club: clubRecord, template } = await insertTemplate(ctx, club, draftFromV1(parseInput(v1FormCreateSchema, input)))
  return presentV1Form(clubRecord, template)
}

export async function patchV1Form(ctx: IssuerContext, club: string, id: number, input: unknown) {
  const { club: clubRecord, template } = await updateTemplate(ctx, club, id, changesFromV1(parseInput(v1FormPatchSchema, input)))
  return presentV1Form(clubRecord, template)
}

export async function readV1Form(ctx: IssuerContext, club: string, id: number) {
  const clubRecord = await requireClub(ctx.storage, club)
  return presentV1Form(clubRecord, await requireTemplate(ctx.storage, club, id))
}

/** The v1 read shape. v1 answers only ever gain keys (docs/api.md §9): a contract test pins it. */
export const v1FormSchema = v.object({
  id: v.number(),
  name: v.string(),
  nameEn: v.nullable(v.string()),
  type: v.picklist(TEMPLATE_TYPES),
  description: v.string(),
  descriptionEn: v.nullable(v.string()),
  imprintDescription: v.string(),
  imprintDescriptionEn: v.nullable(v.string()),
  tags: v.array(v.string()),
  prefix: v.nullable(v.string()),
  /** Only when public, else `null`. */
  program: v.nullable(v.object({ name: v.nullable(v.string()), type: v.nullable(v.string()), url: v.nullable(v.string()), isPublic: v.literal(true) })),
  courseBeginAt: v.nullable(v.string()),
  courseEndAt: v.nullable(v.string()),
  achievementBadgeDesignId: v.nullable(v.number()),
  achievementCertificateDesignId: v.nullable(v.number()),
  requirements: v.array(
    v.object({
      id: v.number(),
      type: v.nullable(v.picklist(REQUIREMENT_TYPES)),
      description: v.nullable(v.string()),
      url: v.nullable(v.string()),
      order: v.number(),
    }),
  ),
  /** The club first as `representative`, then the partners. */
  institutions: v.array(v.object({ name: v.string(), role: v.picklist(['representative', 'partner']), isVerified: v.boolean() })),
  issuedCount: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type V1Form = v.InferOutput<typeof v1FormSchema>

export function presentV1Form(club: Club, template: AchievementTemplate): V1Form {
  return {
    id: template.id,
    name: template.name,
    nameEn: template.nameEn,
    type: template.type,
    description: template.description,
    descriptionEn: template.descriptionEn,
    imprintDescription: template.imprintDescription,
    imprintDescriptionEn: template.imprintDescriptionEn,
    tags: [...template.tag],
    prefix: template.prefix,
    program: template.program?.isPublic ? { name: template.program.name, type: template.program.type, url: template.program.url, isPublic: true } : null,
    courseBeginAt: template.courseBeginAt,
    courseEndAt: template.courseEndAt,
    achievementBadgeDesignId: template.badgeDesignId,
    achievementCertificateDesignId: template.certificateDesignId,
    // Rule 8 orders v1 requirements too.
    requirements: orderRequirements(template.requirements).map(({ id, type, description, url, order }) => ({ id, type, description, url, order })),
    institutions: [
      { name: club.name, role: 'representative' as const, isVerified: club.issuerVerified },
      ...template.coIssuers.map((partner) => ({ name: partner.name, role: 'partner' as const, isVerified: partner.isVerified })),
    ],
    issuedCount: template.issuedCount,
    createdAt: new Date(template.createdAt).toISOString(),
    updatedAt: new Date(template.updatedAt).toISOString(),
  }
}
