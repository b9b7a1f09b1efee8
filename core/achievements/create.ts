import { draftFromV2, templateCreateSchema } from './schema.ts'
import { applyTemplateChanges, newRequirements } from './patch.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireClub } from '../clubs/require.ts'
import { badgeImageOf, checkDesignRefs } from './design-refs.ts'
import { parseInput } from '../validation/parse-input.ts'
import { startReminderSweeps } from '../issuances/expiry-sweep.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import type { TemplateDraft } from './draft.ts'
import type { AchievementTemplate, NewAchievementTemplate } from './template.ts'

/** Creates a template from the v2 write shape (docs/api.md §4.10). */
export async function createTemplate(ctx: IssuerContext, clubDomain: string, input: unknown): Promise<TemplateView> {
  const { club, template, badgeImage } = await insertTemplate(ctx, clubDomain, draftFromV2(parseInput(templateCreateSchema, input)))
  return presentTemplate(ctx.config, club, template, badgeImage)
}

/** Stores a draft from any surface in one unit of work, after checking the designs it names. */
export async function insertTemplate(
  ctx: IssuerContext,
  clubDomain: string,
  draft: TemplateDraft,
): Promise<{ club: Club; template: AchievementTemplate; badgeImage: string | null }> {
  const now = ctx.clock.now()
  return ctx.storage.transaction(
    async (tx) => {
      const club = await requireClub(tx, clubDomain)
      await checkDesignRefs(tx, clubDomain, { badge: draft.badgeDesignId, certificate: draft.certificateDesignId })
      const template = await tx.achievements.insert(newTemplate(clubDomain, draft, now))
      await startReminderSweeps(tx, template.expiryReminders, now)
      return { club, template, badgeImage: await badgeImageOf(tx, template) }
    },
    { club: clubDomain },
  )
}

/**
 * The draft applied to the blank template, by the rules a patch follows: what the draft leaves out takes
 * the blank's value (`type` `completion`, no tags, no program), and an engraved description not written
 * separately mirrors the description (rule 7), as the blank's does.
 */
export function newTemplate(club: string, draft: TemplateDraft, now: number): NewAchievementTemplate {
  const blank: AchievementTemplate = {
    id: 0,
    club,
    name: '',
    nameEn: null,
    type: 'completion',
    description: '',
    descriptionEn: null,
    imprintDescription: '',
    imprintDescriptionEn: null,
    tag: [],
    requirements: [],
    program: null,
    coIssuers: [],
    prefix: null,
    courseBeginAt: null,
    courseEndAt: null,
    badgeDesignId: null,
    certificateDesignId: null,
    expiryReminders: [],
    issuedCount: 0,
    createdAt: now,
    updatedAt: now,
  }
  const { id: _id, issuedCount: _issuedCount, ...template } = applyTemplateChanges(blank, draft, now)
  return { ...template, requirements: newRequirements(draft.requirements ?? []) }
}
