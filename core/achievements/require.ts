import { ProblemError } from '../errors.ts'
import type { Stores } from '../ports/storage.ts'
import type { AchievementTemplate } from './template.ts'

/** The club's template, or 404 `achievement-not-found` (also for another club's template). */
export async function requireTemplate(stores: Stores, club: string, id: number): Promise<AchievementTemplate> {
  const template = Number.isSafeInteger(id) && id > 0 ? await stores.achievements.findById(club, id) : null
  if (!template) throw new ProblemError('achievement-not-found', { detail: `There is no achievement template ${id}.` })
  return template
}
