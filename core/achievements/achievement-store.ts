import type { AchievementTemplate, NewAchievementTemplate, NewRequirement, Requirement } from './template.ts'
import type { KeysetPage } from '../ports/keyset-page.ts'

export interface AchievementStore {
  /**
   * Inserts a template and its requirements with fresh ids, returning the stored template. Template
   * and requirement ids MUST increase and MUST never be reused, also after deletions.
   */
  insert(template: NewAchievementTemplate): Promise<AchievementTemplate>
  /** The club's template with this id, requirements included (in any order), or `null`. */
  findById(club: string, id: number): Promise<AchievementTemplate | null>
  /**
   * Writes every field of `template` except `id`, `club`, `requirements`, `issuedCount` and `createdAt`.
   * Returns `false` when there is no such template.
   */
  update(template: AchievementTemplate): Promise<boolean>
  /** Deletes the template's requirements and inserts these with fresh ids; returns them. */
  replaceRequirements(templateId: number, requirements: NewRequirement[]): Promise<Requirement[]>
  /** The club's templates, highest id (newest) first, keyset-paged; `[]` when none. */
  list(club: string, page: KeysetPage): Promise<AchievementTemplate[]>
  /** How many templates the club has. */
  countByClub(club: string): Promise<number>
  /** Adds `by` to the template's `issuedCount`. */
  incrementIssuedCount(templateId: number, by: number): Promise<void>
}
