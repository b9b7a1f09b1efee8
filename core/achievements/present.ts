import { achievementTypeOf } from './achievement-type.ts'
import { criteriaNarrative } from './narrative.ts'
import { orderRequirements } from './order-requirements.ts'
import { clubDid } from '../did-documents/did.ts'
import { imageUrl, skillUrl } from '../credentials/urls.ts'
import type { IssuerConfig } from '../config.ts'
import type { Club } from '../clubs/club.ts'
import type { AchievementTemplate, RequirementType, TemplateType } from './template.ts'

/** An OB 3.0 Alignment to the skill page of one tag. */
export interface Alignment {
  type: ['Alignment']
  targetName: string
  targetUrl: string
  targetType: 'ext:SkillTag'
}

/** A co-issuer as read (spec §2.3): the club first as `representative`, then its partners. */
export interface CoIssuerView {
  id: string | null
  name: string
  url: string | null
  role: 'representative' | 'partner'
  isVerified: boolean
}

/** The template as read on v2 (spec §2.3), derived fields included. */
export interface TemplateView {
  id: number
  name: string
  nameEn: string | null
  type: TemplateType
  achievementType: string
  description: string
  descriptionEn: string | null
  imprintDescription: string
  imprintDescriptionEn: string | null
  tag: string[]
  alignment: Alignment[]
  criteria: {
    narrative: string
    requirements: { id: number; type: RequirementType | null; description: string | null; url: string | null }[]
  }
  coIssuers: CoIssuerView[]
  program?: { name: string | null; url: string | null; isPublic: true }
  achievementBadgeDesignId: number | null
  achievementCertificateDesignId: number | null
  /** The certificate-number prefix (letters, at most 5; spec §2.12), printed on certificates. */
  prefix: string | null
  /** The badge image (of the badge design), engraved as `achievement.image`; `null` without one. */
  image: string | null
  issuedCount: number
  createdAt: string
  updatedAt: string
}

/**
 * The template as read, with every derived field computed here and only here: template reads return
 * what the issuer would sign into the next credential (spec §1), so the credential builder calls this too.
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
