import type { TemplateType } from './template.ts'

/**
 * The internal type mapped to an Open Badges 3.0 `achievementType` (docs/api.md §2.3, docs/decisions/0011-templates.md § `achievementType` mapping).
 * Where OB 3.0 has no term of its own, an `ext:` term, as the OB 3.0 vocabulary allows.
 */
export const ACHIEVEMENT_TYPES = {
  completion: 'CertificateOfCompletion',
  activity: 'CoCurricular',
  license: 'License',
  career: 'ext:CareerExperience',
  award: 'Award',
  recommendation: 'ext:Recommendation',
  membership: 'Membership',
  degree: 'Degree',
} as const satisfies Record<TemplateType, string>

export function achievementTypeOf(type: TemplateType): string {
  return ACHIEVEMENT_TYPES[type]
}
