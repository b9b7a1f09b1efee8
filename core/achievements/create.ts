import { parseInput, templateCreateSchema } from './schema.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireClub } from '../clubs/require.ts'
import { badgeImageOf, checkDesignRefs } from './design-refs.ts'
import type { IssuerContext } from '../context.ts'
import type { NewAchievementTemplate } from './template.ts'

/** Creates a template from the v2 write shape (spec §4.10). */
export async function createTemplate(ctx: IssuerContext, clubDomain: string, input: unknown): Promise<TemplateView> {
  const body = parseInput(templateCreateSchema, input)
  const now = ctx.clock.now()
  const template: NewAchievementTemplate = {
    club: clubDomain,
    name: body.name,
    nameEn: body.nameEn ?? null,
    type: body.type ?? 'completion',
    description: body.description,
    descriptionEn: body.descriptionEn ?? null,
    // An engraved description not written separately mirrors the description (rule 7).
    imprintDescription: body.imprintDescription ?? body.description,
    imprintDescriptionEn: body.imprintDescriptionEn ?? null,
    tag: body.tag ?? [],
    requirements: (body.criteria?.requirements ?? []).map((requirement, index) => ({
      type: requirement.type ?? null,
      description: requirement.description ?? null,
      url: requirement.url ?? null,
      order: index,
    })),
    program: body.program ? { name: body.program.name ?? null, url: body.program.url ?? null, type: null, isPublic: body.program.isPublic ?? false } : null,
    coIssuers: [],
    prefix: null,
    courseBeginAt: null,
    courseEndAt: null,
    badgeDesignId: body.achievementBadgeDesignId ?? null,
    certificateDesignId: body.achievementCertificateDesignId ?? null,
    createdAt: now,
    updatedAt: now,
  }
  return ctx.storage.transaction(async (tx) => {
    const club = await requireClub(tx, clubDomain)
    await checkDesignRefs(tx, clubDomain, { badge: template.badgeDesignId, certificate: template.certificateDesignId })
    const stored = await tx.achievements.insert(template)
    return presentTemplate(ctx.config, club, stored, await badgeImageOf(tx, stored))
  })
}
