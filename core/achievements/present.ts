import * as v from 'valibot'
import { achievementTypeOf } from './achievement-type.ts'
import { criteriaNarrative } from './narrative.ts'
import { orderRequirements } from './order-requirements.ts'
import { clubDid } from '../did-documents/did.ts'
import { imageUrl, skillUrl } from '../credentials/urls.ts'
import type { IssuerConfig } from '../config.ts'
import type { Club } from '../clubs/club.ts'
import { REQUIREMENT_TYPES, TEMPLATE_TYPES, type AchievementTemplate } from './template.ts'

/** An OB 3.0 Alignment to the skill page of one tag. */
export const alignmentSchema = v.object({
  type: v.tuple([v.literal('Alignment')]),
  targetName: v.string(),
  targetUrl: v.string(),
  targetType: v.literal('ext:SkillTag'),
})
export type Alignment = v.InferOutput<typeof alignmentSchema>

/** A co-issuer as read (docs/api.md §2.3): the club first as `representative`, then its partners. */
export const coIssuerViewSchema = v.object({
  /** The club's DID, or the partner's url. */
  id: v.nullable(v.string()),
  name: v.string(),
  url: v.nullable(v.string()),
  role: v.picklist(['representative', 'partner']),
  isVerified: v.boolean(),
})
export type CoIssuerView = v.InferOutput<typeof coIssuerViewSchema>

/** A requirement as read (docs/api.md §2.4), in requirement order (rule 8). */
export const requirementViewSchema = v.object({
  id: v.number(),
  type: v.nullable(v.picklist(REQUIREMENT_TYPES)),
  description: v.nullable(v.string()),
  url: v.nullable(v.string()),
})

/**
 * The members of a template as read, derived ones included, without `criteria`: the issuance detail's
 * `form` has the same members with its own `criteria` (`issuances/present.ts`).
 */
export const templateViewEntries = {
  id: v.number(),
  name: v.string(),
  nameEn: v.nullable(v.string()),
  type: v.picklist(TEMPLATE_TYPES),
  achievementType: v.string(),
  description: v.string(),
  descriptionEn: v.nullable(v.string()),
  imprintDescription: v.string(),
  imprintDescriptionEn: v.nullable(v.string()),
  tag: v.array(v.string()),
  alignment: v.array(alignmentSchema),
  coIssuers: v.array(coIssuerViewSchema),
  /** Only when public (docs/api.md §2.5). */
  program: v.optional(v.object({ name: v.nullable(v.string()), url: v.nullable(v.string()), isPublic: v.literal(true) })),
  achievementBadgeDesignId: v.nullable(v.number()),
  achievementCertificateDesignId: v.nullable(v.number()),
  /** The certificate-number prefix (letters, at most 5; docs/api.md §2.12), printed on certificates. */
  prefix: v.nullable(v.string()),
  /** The badge image (of the badge design), engraved as `achievement.image`; `null` without one. */
  image: v.nullable(v.string()),
  issuedCount: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
}

/** The template as read on v2 (docs/api.md §2.3), derived fields included: the one source of its type and its document schema. */
export const templateViewSchema = v.object({
  ...templateViewEntries,
  criteria: v.object({ narrative: v.string(), requirements: v.array(requirementViewSchema) }),
  /**
   * Always on a template read. Not engraved, and not part of an issuance's `form` (the worker reads the
   * live template, expiry-reminders.ts); optional because snapshots stored before it lack it.
   */
  expiryReminders: v.optional(v.array(v.string())),
})
export type TemplateView = v.InferOutput<typeof templateViewSchema>

/**
 * The template as read, with every derived field computed here and only here: template reads return
 * what the issuer would sign into the next credential (docs/api.md §1), so the credential builder calls this too.
 * `badgeImage` is the hash of the badge design's image (`badgeImageOf`).
 */
export function presentTemplate(config: IssuerConfig, club: Club, template: AchievementTemplate, badgeImage: string | null = null): TemplateView {
  const requirements = orderRequirements(template.requirements)
  const view: TemplateView = {
    id: template.id,
    name: template.name,
    nameEn: template.nameEn,
    type: template.type,
    achievementType: achievementTypeOf(template.type),
    description: template.description,
    descriptionEn: template.descriptionEn,
    imprintDescription: template.imprintDescription,
    imprintDescriptionEn: template.imprintDescriptionEn,
    tag: [...template.tag],
    alignment: template.tag.map((tag) => ({
      type: ['Alignment'],
      targetName: tag,
      targetUrl: skillUrl(config, tag),
      targetType: 'ext:SkillTag',
    })),
    criteria: {
      narrative: criteriaNarrative(requirements),
      requirements: requirements.map(({ id, type, description, url }) => ({ id, type, description, url })),
    },
    coIssuers: [
      { id: clubDid(config, club.domain), name: club.name, url: null, role: 'representative', isVerified: club.issuerVerified },
      ...template.coIssuers.map((partner) => ({
        id: partner.url,
        name: partner.name,
        url: partner.url,
        role: 'partner' as const,
        isVerified: partner.isVerified,
      })),
    ],
    achievementBadgeDesignId: template.badgeDesignId,
    prefix: template.prefix,
    achievementCertificateDesignId: template.certificateDesignId,
    expiryReminders: [...template.expiryReminders],
    image: badgeImage ? imageUrl(config, badgeImage) : null,
    issuedCount: template.issuedCount,
    createdAt: new Date(template.createdAt).toISOString(),
    updatedAt: new Date(template.updatedAt).toISOString(),
  }
  if (template.program?.isPublic) {
    view.program = { name: template.program.name, url: template.program.url, isPublic: true }
  }
  return view
}
