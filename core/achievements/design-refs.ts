import { validationFailed, type FieldError } from '../errors.ts'
import type { DesignKind } from '../designs/design.ts'
import type { Stores } from '../ports/storage.ts'
import type { AchievementTemplate } from './template.ts'

/**
 * Checks that the designs a template names exist in its club and are of the right kind: a badge design
 * for `achievementBadgeDesignId`, a certificate design for `achievementCertificateDesignId`.
 */
export async function checkDesignRefs(stores: Stores, club: string, refs: { badge?: number | null; certificate?: number | null }): Promise<void> {
  const errors: FieldError[] = []
  const check = async (id: number | null | undefined, kind: DesignKind, path: string) => {
    if (id === null || id === undefined) return
    const design = await stores.designs.findById(club, id)
    if (!design) errors.push({ message: 'design-not-found', path })
    else if (design.kind !== kind) errors.push({ message: 'design-kind-mismatch', path })
  }
  await check(refs.badge, 'badge', 'achievementBadgeDesignId')
  await check(refs.certificate, 'certificate', 'achievementCertificateDesignId')
  if (errors.length > 0) throw validationFailed(errors)
}

/** The image hash of the template's badge design, or `null` (no design: the default look, no image). */
export async function badgeImageOf(stores: Stores, template: AchievementTemplate): Promise<string | null> {
  if (template.badgeDesignId === null) return null
  return (await stores.designs.findById(template.club, template.badgeDesignId))?.image ?? null
}
