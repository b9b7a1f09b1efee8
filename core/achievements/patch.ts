import { parseInput, templatePatchSchema, type TemplatePatchInput } from './schema.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireClub } from '../clubs/require.ts'
import { requireTemplate } from './require.ts'
import { badgeImageOf, checkDesignRefs } from './design-refs.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import type { AchievementTemplate, NewRequirement, Program } from './template.ts'

/**
 * The changes of a patch, whatever surface it came from: v2 sends requirements in array order, v1 with
 * its own `order`; both end here, so every rule of spec §4.10 applies once.
 */
export type TemplateChanges = Omit<TemplatePatchInput, 'criteria' | 'program'> & {
  requirements?: NewRequirement[]
  program?: { name?: string | null; url?: string | null; type?: string | null; isPublic?: boolean } | null
  /** Legacy-era members (v1 and legacy forms). */
  prefix?: string | null
  courseBeginAt?: string | null
  courseEndAt?: string | null
}

/** Patches a template from the v2 write shape (spec §4.10). */
export async function patchTemplate(ctx: IssuerContext, clubDomain: string, id: number, input: unknown): Promise<TemplateView> {
  const { criteria, ...body } = parseInput(templatePatchSchema, input)
  const changes: TemplateChanges = { ...body }
  if (criteria?.requirements !== undefined) {
    changes.requirements = criteria.requirements.map((requirement, index) => ({
      type: requirement.type ?? null,
      description: requirement.description ?? null,
      url: requirement.url ?? null,
      order: index,
    }))
  }
  const { club, template, badgeImage } = await updateTemplate(ctx, clubDomain, id, changes)
  return presentTemplate(ctx.config, club, template, badgeImage)
}

/** Applies changes in one unit of work: only the members given change. */
export async function updateTemplate(
  ctx: IssuerContext,
  clubDomain: string,
  id: number,
  changes: TemplateChanges,
): Promise<{ club: Club; template: AchievementTemplate; badgeImage: string | null }> {
  return ctx.storage.transaction(async (tx) => {
    const club = await requireClub(tx, clubDomain)
    const next = applyTemplatePatch(await requireTemplate(tx, clubDomain, id), changes, ctx.clock.now())
    await checkDesignRefs(tx, clubDomain, { badge: changes.achievementBadgeDesignId, certificate: changes.achievementCertificateDesignId })
    await tx.achievements.update(next)
    // Rule 5: the list is replaced as a whole, with new ids; `[]` deletes all.
    if (changes.requirements !== undefined) next.requirements = await tx.achievements.replaceRequirements(id, changes.requirements)
    return { club, template: next, badgeImage: await badgeImageOf(tx, next) }
  })
}

/** The template with the scalar changes applied (requirements are replaced by the caller). */
export function applyTemplatePatch(current: AchievementTemplate, body: TemplateChanges, now: number): AchievementTemplate {
  return {
    ...current,
    name: body.name ?? current.name,
    nameEn: body.nameEn !== undefined ? body.nameEn : current.nameEn,
    type: body.type ?? current.type,
    // Rule 1: the schema refuses an empty description, so `undefined` is the only way to keep it.
    description: body.description ?? current.description,
    descriptionEn: body.descriptionEn !== undefined ? body.descriptionEn : current.descriptionEn,
    imprintDescription: nextImprintDescription(current, body),
    imprintDescriptionEn: body.imprintDescriptionEn !== undefined ? body.imprintDescriptionEn : current.imprintDescriptionEn,
    tag: body.tag ?? current.tag,
    program: nextProgram(current.program, body.program),
    badgeDesignId: body.achievementBadgeDesignId !== undefined ? body.achievementBadgeDesignId : current.badgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId !== undefined ? body.achievementCertificateDesignId : current.certificateDesignId,
    prefix: body.prefix !== undefined ? body.prefix : current.prefix,
    courseBeginAt: body.courseBeginAt !== undefined ? body.courseBeginAt : current.courseBeginAt,
    courseEndAt: body.courseEndAt !== undefined ? body.courseEndAt : current.courseEndAt,
    updatedAt: now,
  }
}

/**
 * Rule 7: a patch of `description` without `imprintDescription` moves the engraved description along
 * only when it mirrored the old description; a separately written one stays. Sending an empty or null
 * `imprintDescription` makes it a mirror again.
 */
function nextImprintDescription(current: AchievementTemplate, body: TemplateChanges): string {
  const description = body.description ?? current.description
  if (body.imprintDescription !== undefined) return body.imprintDescription ?? description
  return current.imprintDescription === current.description ? description : current.imprintDescription
}

/** Rule 6: `program` is merged key by key; `null` removes it. */
function nextProgram(current: Program | null, patch: TemplateChanges['program']): Program | null {
  if (patch === undefined) return current
  if (patch === null) return null
  const base = current ?? { name: null, url: null, type: null, isPublic: false }
  return {
    name: patch.name !== undefined ? patch.name : base.name,
    url: patch.url !== undefined ? patch.url : base.url,
    type: patch.type !== undefined ? patch.type : base.type,
    isPublic: patch.isPublic ?? base.isPublic,
  }
}
