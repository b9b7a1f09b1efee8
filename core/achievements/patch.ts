import { templatePatchSchema } from './schema.ts'
import { changesFromV2 } from './schema.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireClub } from '../clubs/require.ts'
import { requireTemplate } from './require.ts'
import { badgeImageOf, checkDesignRefs } from './design-refs.ts'
import { parseInput } from '../validation/parse-input.ts'
import { startReminderSweeps } from '../issuances/expiry-sweep.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import type { RequirementDraft, TemplateChanges } from './draft.ts'
import type { AchievementTemplate, NewRequirement, Program } from './template.ts'

/** Patches a template from the v2 write shape (docs/api.md §4.10). */
export async function patchTemplate(ctx: IssuerContext, clubDomain: string, id: number, input: unknown): Promise<TemplateView> {
  const { club, template, badgeImage } = await updateTemplate(ctx, clubDomain, id, changesFromV2(parseInput(templatePatchSchema, input)))
  return presentTemplate(ctx.config, club, template, badgeImage)
}

/** Applies changes from any surface in one unit of work: only the members given change. */
export async function updateTemplate(
  ctx: IssuerContext,
  clubDomain: string,
  id: number,
  changes: TemplateChanges,
): Promise<{ club: Club; template: AchievementTemplate; badgeImage: string | null }> {
  return ctx.storage.transaction(
    async (tx) => {
      const club = await requireClub(tx, clubDomain)
      const next = applyTemplateChanges(await requireTemplate(tx, clubDomain, id), changes, ctx.clock.now())
      await checkDesignRefs(tx, clubDomain, { badge: changes.badgeDesignId, certificate: changes.certificateDesignId })
      await tx.achievements.update(next)
      await startReminderSweeps(tx, next.expiryReminders, ctx.clock.now())
      // Rule 5: the list is replaced as a whole, with new ids; `[]` deletes all.
      if (changes.requirements !== undefined) next.requirements = await tx.achievements.replaceRequirements(id, newRequirements(changes.requirements))
      return { club, template: next, badgeImage: await badgeImageOf(tx, next) }
    },
    { club: clubDomain },
  )
}

/**
 * The template with the changes applied, requirements aside (the store replaces them). A create applies
 * its draft to the blank template with this too, so both writes follow the same rules.
 */
export function applyTemplateChanges(current: AchievementTemplate, changes: TemplateChanges, now: number): AchievementTemplate {
  return {
    ...current,
    name: changes.name ?? current.name,
    nameEn: changes.nameEn !== undefined ? changes.nameEn : current.nameEn,
    type: changes.type ?? current.type,
    // Rule 1: the schemas refuse an empty description, so `undefined` is the only way to keep it.
    description: changes.description ?? current.description,
    descriptionEn: changes.descriptionEn !== undefined ? changes.descriptionEn : current.descriptionEn,
    imprintDescription: nextImprintDescription(current, changes),
    imprintDescriptionEn: changes.imprintDescriptionEn !== undefined ? changes.imprintDescriptionEn : current.imprintDescriptionEn,
    tag: changes.tag ?? current.tag,
    program: nextProgram(current.program, changes.program),
    badgeDesignId: changes.badgeDesignId !== undefined ? changes.badgeDesignId : current.badgeDesignId,
    certificateDesignId: changes.certificateDesignId !== undefined ? changes.certificateDesignId : current.certificateDesignId,
    prefix: changes.prefix !== undefined ? changes.prefix : current.prefix,
    expiryReminders: changes.expiryReminders ?? current.expiryReminders,
    courseBeginAt: changes.courseBeginAt !== undefined ? changes.courseBeginAt : current.courseBeginAt,
    courseEndAt: changes.courseEndAt !== undefined ? changes.courseEndAt : current.courseEndAt,
    updatedAt: now,
  }
}

/** Requirements to store: a requirement sent without `order` sorts by its array position (docs/api.md §2.4). */
export function newRequirements(requirements: readonly RequirementDraft[]): NewRequirement[] {
  return requirements.map((requirement, index) => ({
    type: requirement.type ?? null,
    description: requirement.description ?? null,
    url: requirement.url ?? null,
    order: requirement.order ?? index,
  }))
}

/**
 * Rule 7: a patch of `description` without `imprintDescription` moves the engraved description along
 * only when it mirrored the old description; a separately written one stays. Sending an empty or null
 * `imprintDescription` makes it a mirror again.
 */
function nextImprintDescription(current: AchievementTemplate, changes: TemplateChanges): string {
  const description = changes.description ?? current.description
  if (changes.imprintDescription !== undefined) return changes.imprintDescription ?? description
  return current.imprintDescription === current.description ? description : current.imprintDescription
}

/** Rule 6: `program` is merged key by key; `null` removes it; `isPublic` defaults to `false`. */
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
