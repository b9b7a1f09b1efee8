import { parseInput, templatePatchSchema, type TemplatePatchInput } from './schema.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireClub } from '../clubs/require.ts'
import { requireTemplate } from './require.ts'
import { badgeImageOf, checkDesignRefs } from './design-refs.ts'
import type { IssuerContext } from '../context.ts'
import type { AchievementTemplate, Program } from './template.ts'

/** Patches a template (spec §4.10): only the members sent change, in one unit of work. */
export async function patchTemplate(ctx: IssuerContext, clubDomain: string, id: number, input: unknown): Promise<TemplateView> {
  const body = parseInput(templatePatchSchema, input)
  return ctx.storage.transaction(async (tx) => {
    const club = await requireClub(tx, clubDomain)
    const next = applyTemplatePatch(await requireTemplate(tx, clubDomain, id), body, ctx.clock.now())
    await checkDesignRefs(tx, clubDomain, { badge: body.achievementBadgeDesignId, certificate: body.achievementCertificateDesignId })
    await tx.achievements.update(next)
    const requirements = body.criteria?.requirements
    if (requirements !== undefined) {
      // Rule 5: the list is replaced as a whole, with new ids; `[]` deletes all.
      next.requirements = await tx.achievements.replaceRequirements(
        id,
        requirements.map((requirement, index) => ({
          type: requirement.type ?? null,
          description: requirement.description ?? null,
          url: requirement.url ?? null,
          order: index,
        })),
      )
    }
    return presentTemplate(ctx.config, club, next, await badgeImageOf(tx, next))
  })
}

/** The template with the patch's scalar members applied (requirements are replaced by the caller). */
export function applyTemplatePatch(current: AchievementTemplate, body: TemplatePatchInput, now: number): AchievementTemplate {
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
    updatedAt: now,
  }
}

/**
 * Rule 7: a patch of `description` without `imprintDescription` moves the engraved description along
 * only when it mirrored the old description; a separately written one stays. Sending an empty or null
 * `imprintDescription` makes it a mirror again.
 */
function nextImprintDescription(current: AchievementTemplate, body: TemplatePatchInput): string {
  const description = body.description ?? current.description
  if (body.imprintDescription !== undefined) return body.imprintDescription ?? description
  return current.imprintDescription === current.description ? description : current.imprintDescription
}

/** Rule 6: `program` is merged key by key; `null` removes it. */
function nextProgram(current: Program | null, patch: TemplatePatchInput['program']): Program | null {
  if (patch === undefined) return current
  if (patch === null) return null
  const base = current ?? { name: null, url: null, type: null, isPublic: false }
  return {
    name: patch.name !== undefined ? patch.name : base.name,
    url: patch.url !== undefined ? patch.url : base.url,
    type: base.type,
    isPublic: patch.isPublic ?? base.isPublic,
  }
}
