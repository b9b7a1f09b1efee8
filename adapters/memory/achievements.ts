import type { AchievementTemplate, NewRequirement, Requirement } from '../../core/achievements/template.ts'
import type { AchievementStore } from '../../core/ports/storage.ts'
import { type Journal, put, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createAchievementStore(state: State, journal: Journal): AchievementStore {
  function requirementsOf(templateId: number): Requirement[] {
    return [...state.requirements.values()]
      .filter((requirement) => requirement.templateId === templateId)
      .map(({ templateId: _, ...requirement }) => copy(requirement))
  }
  function insertRequirements(templateId: number, requirements: NewRequirement[]): Requirement[] {
    return requirements.map((requirement) => {
      const stored = { ...copy(requirement), id: ++state.sequences.requirement }
      put(journal, state.requirements, stored.id, { ...stored, templateId })
      return stored
    })
  }
  const withRequirements = (template: Omit<AchievementTemplate, 'requirements'>): AchievementTemplate => ({
    ...copy(template),
    requirements: requirementsOf(template.id),
  })

  return {
    async countByClub(club) {
      let count = 0
      for (const template of state.achievements.values()) if (template.club === club) count++
      return count
    },
    async insert(template) {
      const { requirements, ...fields } = copy(template)
      const id = ++state.sequences.achievement
      put(journal, state.achievements, id, { ...fields, id, issuedCount: 0 })
      insertRequirements(id, requirements)
      return withRequirements(state.achievements.get(id)!)
    },
    async findById(club, id) {
      const template = state.achievements.get(id)
      return template && template.club === club ? withRequirements(template) : null
    },
    async update(template) {
      const current = state.achievements.get(template.id)
      if (!current || current.club !== template.club) return false
      const { requirements: _, id, club, issuedCount, createdAt, ...fields } = copy(template)
      put(journal, state.achievements, id, { ...current, ...fields })
      return true
    },
    async replaceRequirements(templateId, requirements) {
      for (const [id, requirement] of state.requirements) {
        if (requirement.templateId === templateId) remove(journal, state.requirements, id)
      }
      return insertRequirements(templateId, requirements)
    },
    async list(club, { limit, beforeId }) {
      return [...state.achievements.values()]
        .filter((template) => template.club === club && (beforeId === null || template.id < beforeId))
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(withRequirements)
    },
    async incrementIssuedCount(templateId, by) {
      const template = state.achievements.get(templateId)
      if (template) put(journal, state.achievements, templateId, { ...template, issuedCount: template.issuedCount + by })
    },
  }
}
