import * as v from 'valibot'
import {
  MAX,
  REQUIREMENTS_MAX,
  designId,
  hasDescriptionOrUrl,
  isoDateTimeText,
  jsonObject,
  optionalText,
  optionalUrl,
  prefixRule,
  requiredText,
  requirementOrder,
  requirementType,
  tagList,
} from './fields.ts'
import { parseInput, textEntries } from './schema.ts'
import { insertTemplate, type TemplateDraft } from './create.ts'
import { updateTemplate, type TemplateChanges } from './patch.ts'
import { orderRequirements } from './order-requirements.ts'
import { requireTemplate } from './require.ts'
import { requireClub } from '../clubs/require.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import type { AchievementTemplate, NewRequirement } from './template.ts'

/**
 * The v1 form (spec §4.12, §9): the same template as v2 in the older shape: `tags`, a `requirements[]`
 * array whose `order` the client sends, `institutions[]`. Built from the same field rules as v2.
 */
const ignored = v.optional(v.unknown())

const v1Requirement = v.pipe(
  jsonObject({
    id: ignored,
    type: requirementType,
    description: optionalText(MAX.requirement, 'multi-line'),
    url: optionalUrl,
    order: v.optional(requirementOrder),
  }),
  v.check((requirement) => hasDescriptionOrUrl(requirement), 'requirement-empty'),
)

const v1Program = v.nullable(
  jsonObject({
    name: optionalText(MAX.programName),
    type: optionalText(MAX.programName),
    url: optionalUrl,
    isPublic: v.optional(v.boolean('must-be-boolean')),
  }),
)

const entries = {
  ...textEntries,
  tags: v.optional(tagList),
  requirements: v.optional(v.pipe(v.array(v1Requirement, 'must-be-array'), v.maxLength(REQUIREMENTS_MAX, 'too-many-requirements'))),
  program: v.optional(v1Program),
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

/** v1 and legacy send `order`; a requirement without one sorts by its array position. */
function requirementsWithOrder(requirements: { type?: NewRequirement['type'] | undefined; description?: string | null; url?: string | null; order?: number }[]): NewRequirement[] {
  return requirements.map((requirement, index) => ({
    type: requirement.type ?? null,
    description: requirement.description ?? null,
    url: requirement.url ?? null,
    order: requirement.order ?? index,
  }))
}

export async function createV1Form(ctx: IssuerContext, club: string, input: unknown) {
  const body = parseInput(v1FormCreateSchema, input)
  const draft: TemplateDraft = {
    name: body.name,
    nameEn: body.nameEn ?? null,
    type: body.type ?? 'completion',
    description: body.description,
    descriptionEn: body.descriptionEn ?? null,
    imprintDescription: body.imprintDescription ?? null,
    imprintDescriptionEn: body.imprintDescriptionEn ?? null,
    tag: body.tags ?? [],
    requirements: requirementsWithOrder(body.requirements ?? []),
    program: body.program
      ? { name: body.program.name ?? null, url: body.program.url ?? null, type: body.program.type ?? null, isPublic: body.program.isPublic ?? false }
      : null,
    prefix: body.prefix ?? null,
    courseBeginAt: body.courseBeginAt ?? null,
    courseEndAt: body.courseEndAt ?? null,
    badgeDesignId: body.achievementBadgeDesignId ?? null,
    certificateDesignId: body.achievementCertificateDesignId ?? null,
  }
  const { club: clubRecord, template } = await insertTemplate(ctx, club, draft)
  return presentV1Form(clubRecord, template)
}

export async function patchV1Form(ctx: IssuerContext, club: string, id: number, input: unknown) {
  const { tags, requirements, ...body } = parseInput(v1FormPatchSchema, input)
  const changes: TemplateChanges = { ...body }
  if (tags !== undefined) changes.tag = tags
  if (requirements !== undefined) changes.requirements = requirementsWithOrder(requirements)
  const { club: clubRecord, template } = await updateTemplate(ctx, club, id, changes)
  return presentV1Form(clubRecord, template)
}

export async function readV1Form(ctx: IssuerContext, club: string, id: number) {
  const clubRecord = await requireClub(ctx.storage, club)
  return presentV1Form(clubRecord, await requireTemplate(ctx.storage, club, id))
}

/** The v1 read shape. v1 answers only ever gain keys (spec §9): a contract test pins it. */
export function presentV1Form(club: Club, template: AchievementTemplate) {
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
      { name: club.name, role: 'representative', isVerified: club.issuerVerified },
      ...template.coIssuers.map((partner) => ({ name: partner.name, role: 'partner', isVerified: partner.isVerified })),
    ],
    issuedCount: template.issuedCount,
    createdAt: new Date(template.createdAt).toISOString(),
    updatedAt: new Date(template.updatedAt).toISOString(),
  }
}

export type V1Form = ReturnType<typeof presentV1Form>
