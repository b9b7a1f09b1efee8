import { parseInput, templateCreateSchema, type TemplateCreateInput } from './schema.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireClub } from '../clubs/require.ts'
import { badgeImageOf, checkDesignRefs } from './design-refs.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import type { AchievementTemplate, NewAchievementTemplate } from './template.ts'

/** A template to create, whatever surface it came from (v2, v1, legacy): the rules apply to this. */
export type TemplateDraft = Omit<NewAchievementTemplate, 'club' | 'coIssuers' | 'createdAt' | 'updatedAt' | 'imprintDescription'> & {
  /** `null`: mirror the description (spec §4.10 rule 7). */
  imprintDescription: string | null
}

/** Creates a template from the v2 write shape (spec §4.10). */
export async function createTemplate(ctx: IssuerContext, clubDomain: string, input: unknown): Promise<TemplateView> {
  const { club, template, badgeImage } = await insertTemplate(ctx, clubDomain, draftFromV2(parseInput(templateCreateSchema, input)))
  return presentTemplate(ctx.config, club, template, badgeImage)
}

/** Stores a draft in one unit of work, after checking the designs it names. */
export async function insertTemplate(ctx: IssuerContext, clubDomain: string, draft: TemplateDraft): Promise<{ club: Club; template: AchievementTemplate; badgeImage: string | null }> {
  const now = ctx.clock.now()
  return ctx.storage.transaction(async (tx) => {
    const club = await requireClub(tx, clubDomain)
    await checkDesignRefs(tx, clubDomain, { badge: draft.badgeDesignId, certificate: draft.certificateDesignId })
    const template = await tx.achievements.insert({
      ...draft,
      club: clubDomain,
      // An engraved description not written separately mirrors the description (rule 7).
      imprintDescription: draft.imprintDescription ?? draft.description,
      coIssuers: [],
      createdAt: now,
      updatedAt: now,
    })
    return { club, template, badgeImage: await badgeImageOf(tx, template) }
  })
}

function draftFromV2(body: TemplateCreateInput): TemplateDraft {
  return {
    name: body.name,
    nameEn: body.nameEn ?? null,
    type: body.type ?? 'completion',
    description: body.description,
    descriptionEn: body.descriptionEn ?? null,
    imprintDescription: body.imprintDescription ?? null,
    imprintDescriptionEn: body.imprintDescriptionEn ?? null,
    tag: body.tag ?? [],
    // On v2 the array position is the order (spec §2.4).
    requirements: (body.criteria?.requirements ?? []).map((requirement, index) => ({
      type: requirement.type ?? null,
      description: requirement.description ?? null,
      url: requirement.url ?? null,
      order: index,
    })),
    program: body.program ? { name: body.program.name ?? null, url: body.program.url ?? null, type: null, isPublic: body.program.isPublic ?? false } : null,
    prefix: body.prefix ?? null,
    courseBeginAt: null,
    courseEndAt: null,
    badgeDesignId: body.achievementBadgeDesignId ?? null,
    certificateDesignId: body.achievementCertificateDesignId ?? null,
  }
}
