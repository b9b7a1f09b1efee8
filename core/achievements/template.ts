/**
 * The achievement template (docs/api.md §2.3, "achievement", in places "form"): live, editable data that every
 * credential is engraved from.
 */

/** Internal template types: the legacy enum of docs/api.md §2.12, shared by every surface. */
export const TEMPLATE_TYPES = ['completion', 'activity', 'license', 'career', 'award', 'recommendation', 'membership', 'degree'] as const
export type TemplateType = (typeof TEMPLATE_TYPES)[number]

/**
 * The 16 requirement type codes (docs/api.md §2.4): the three the spec shows, then the thirteen clubcred
 * defines. Documented in docs/decisions/0011-templates.md § The 16 requirement type codes.
 */
export const REQUIREMENT_TYPES = [
  'course_complete',
  'presentation_publication',
  'score',
  'assignment_submit',
  'exam_pass',
  'attendance',
  'project_complete',
  'portfolio_review',
  'peer_review',
  'competition_result',
  'certification_hold',
  'volunteer_hours',
  'training_hours',
  'interview',
  'practical_assessment',
  'other',
] as const
export type RequirementType = (typeof REQUIREMENT_TYPES)[number]

export interface Requirement {
  /** Read only; new on every replacement of the list. */
  id: number
  type: RequirementType | null
  description: string | null
  url: string | null
  /** Sort key: v2 stores the array position, v1 and legacy store what the client sent (docs/api.md §4.10 rule 8). */
  order: number
}

export type NewRequirement = Omit<Requirement, 'id'>

export interface Program {
  name: string | null
  url: string | null
  /** Legacy `program_type`. */
  type: string | null
  /** `program` is read back only when public, and never engraved (docs/api.md §2.5). */
  isPublic: boolean
}

/** A co-issuer beside the club itself (docs/api.md §2.3 `coIssuers`, v1 `institutions[]`). */
export interface CoIssuer {
  name: string
  url: string | null
  isVerified: boolean
}

export interface AchievementTemplate {
  id: number
  club: string
  name: string
  nameEn: string | null
  type: TemplateType
  description: string
  descriptionEn: string | null
  /** The engraved description; equal to `description` while it mirrors it (docs/api.md §4.10 rule 7). */
  imprintDescription: string
  imprintDescriptionEn: string | null
  /** Trimmed, unique, at most 30 of at most 50 characters each. */
  tag: string[]
  /** In storage order; read them through `orderRequirements`. */
  requirements: Requirement[]
  program: Program | null
  coIssuers: CoIssuer[]
  /** Legacy certificate-number prefix: letters only, at most 5. */
  prefix: string | null
  courseBeginAt: string | null
  courseEndAt: string | null
  badgeDesignId: number | null
  certificateDesignId: number | null
  /** ISO 8601 durations before `validUntil` at which the recipient is reminded, longest first (expiry-reminders.ts); never engraved. */
  expiryReminders: string[]
  /** Completed issuances: those whose credential exists. */
  issuedCount: number
  createdAt: number
  updatedAt: number
}

export type NewAchievementTemplate = Omit<AchievementTemplate, 'id' | 'requirements' | 'issuedCount'> & {
  requirements: NewRequirement[]
}
