import { clubPage, type Database } from './database.ts'
import type { AchievementTemplate, NewRequirement, Requirement } from '../../core/achievements/template.ts'
import type { AchievementStore } from '../../core/ports/storage.ts'
import type { SqliteRow, SqliteValue } from './driver.ts'
import { toRequirement, toTemplate } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

const FIELDS =
  'name = ?, name_en = ?, type = ?, description = ?, description_en = ?, imprint_description = ?, imprint_description_en = ?, ' +
  'tag = ?, program = ?, co_issuers = ?, prefix = ?, course_begin_at = ?, course_end_at = ?, badge_design_id = ?, ' +
  'certificate_design_id = ?, expiry_reminders = ?, updated_at = ?'

function fieldValues(t: Omit<AchievementTemplate, 'id' | 'requirements' | 'issuedCount'>): SqliteValue[] {
  return [
    t.name,
    t.nameEn,
    t.type,
    t.description,
    t.descriptionEn,
    t.imprintDescription,
    t.imprintDescriptionEn,
    JSON.stringify(t.tag),
    t.program ? JSON.stringify(t.program) : null,
    JSON.stringify(t.coIssuers),
    t.prefix,
    t.courseBeginAt,
    t.courseEndAt,
    t.badgeDesignId,
    t.certificateDesignId,
    JSON.stringify(t.expiryReminders),
    t.updatedAt,
  ]
}

export function createAchievementStore(db: Database): AchievementStore {
  function insertRequirements(templateId: number, requirements: NewRequirement[]): Requirement[] {
    return requirements.map((requirement) => {
      const row = db.get(
        'INSERT INTO requirements (achievement_id, type, description, url, sort_order) VALUES (?, ?, ?, ?, ?) RETURNING *',
        templateId,
        requirement.type,
        requirement.description,
        requirement.url,
        requirement.order,
      )
      return toRequirement(row!)
    })
  }

  function withRequirements(rows: SqliteRow[]): AchievementTemplate[] {
    if (rows.length === 0) return []
    const byTemplate = new Map<number, Requirement[]>(rows.map((row) => [num(row.id), []]))
    const requirementRows = db.all(
      'SELECT * FROM requirements WHERE achievement_id IN (SELECT value FROM json_each(?))',
      JSON.stringify([...byTemplate.keys()]),
    )
    for (const row of requirementRows) byTemplate.get(num(row.achievement_id))!.push(toRequirement(row))
    return rows.map((row) => toTemplate(row, byTemplate.get(num(row.id))!))
  }

  return {
    async insert(template) {
      const row = db.get(
        `INSERT INTO achievements (club, created_at, issued_count, name, name_en, type, description, description_en,
           imprint_description, imprint_description_en, tag, program, co_issuers, prefix, course_begin_at, course_end_at,
           badge_design_id, certificate_design_id, expiry_reminders, updated_at)
         VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        template.club,
        template.createdAt,
        ...fieldValues(template),
      )!
      return toTemplate(row, insertRequirements(num(row.id), template.requirements))
    },
    async findById(club, id) {
      const row = db.get('SELECT * FROM achievements WHERE club = ? AND id = ?', club, id)
      return row ? withRequirements([row])[0]! : null
    },
    async update(template) {
      return db.run(`UPDATE achievements SET ${FIELDS} WHERE id = ? AND club = ?`, ...fieldValues(template), template.id, template.club) > 0
    },
    async replaceRequirements(templateId, requirements) {
      db.run('DELETE FROM requirements WHERE achievement_id = ?', templateId)
      return insertRequirements(templateId, requirements)
    },
    async incrementIssuedCount(templateId, by) {
      db.run('UPDATE achievements SET issued_count = issued_count + ? WHERE id = ?', by, templateId)
    },
    async countByClub(club) {
      return num(db.get('SELECT count(*) AS n FROM achievements WHERE club = ?', club)?.n)
    },
    async list(club, page) {
      const rows = clubPage(db, 'achievements', club, page)
      return withRequirements(rows)
    },
  }
}
