import { jsonOrNull, type Database, type Row } from './database.ts'
import type { AchievementTemplate, NewRequirement, Requirement } from '../../core/achievements/template.ts'
import type { AchievementStore } from '../../core/ports/storage.ts'
import { toRequirement, toTemplate } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

/** A row of WITH_REQUIREMENTS: the template and its requirements. */
const toTemplateWithRequirements = (row: Row): AchievementTemplate => toTemplate(row, (row.requirements as Row[]).map(toRequirement))

/**
 * A template with its requirements in one statement (json_agg): a direct read outside a unit runs on
 * no transaction, so two statements could see a requirements replacement land in between.
 */
const WITH_REQUIREMENTS = `a.*, (SELECT coalesce(json_agg(r), '[]') FROM requirements r WHERE r.achievement_id = a.id) AS requirements`

export function createAchievementStore({ sql }: Database): AchievementStore {
  async function insertRequirements(templateId: number, requirements: NewRequirement[]): Promise<Requirement[]> {
    const inserted: Requirement[] = []
    // One by one, in order: ids increase with the given order, as on the other adapters.
    for (const requirement of requirements) {
      const [row] = await sql`INSERT INTO requirements (achievement_id, type, description, url, sort_order)
        VALUES (${templateId}, ${requirement.type}, ${requirement.description}, ${requirement.url}, ${requirement.order}) RETURNING *`
      inserted.push(toRequirement(row!))
    }
    return inserted
  }

  const fields = (t: Omit<AchievementTemplate, 'id' | 'requirements' | 'issuedCount'>) => ({
    name: t.name,
    name_en: t.nameEn,
    type: t.type,
    description: t.description,
    description_en: t.descriptionEn,
    imprint_description: t.imprintDescription,
    imprint_description_en: t.imprintDescriptionEn,
    tag: JSON.stringify(t.tag),
    program: jsonOrNull(t.program),
    co_issuers: JSON.stringify(t.coIssuers),
    prefix: t.prefix,
    course_begin_at: t.courseBeginAt,
    course_end_at: t.courseEndAt,
    badge_design_id: t.badgeDesignId,
    certificate_design_id: t.certificateDesignId,
    expiry_reminders: JSON.stringify(t.expiryReminders),
    updated_at: t.updatedAt,
  })

  return {
    async insert(template) {
      const values = { club: template.club, created_at: template.createdAt, issued_count: 0, ...fields(template) }
      const [row] = await sql`INSERT INTO achievements ${sql(values)} RETURNING *`
      return toTemplate(row!, await insertRequirements(num(row!.id), template.requirements))
    },
    async findById(club, id) {
      const [row] = await sql`SELECT ${sql.unsafe(WITH_REQUIREMENTS)} FROM achievements a WHERE a.club = ${club} AND a.id = ${id}`
      return row ? toTemplateWithRequirements(row) : null
    },
    async update(template) {
      const result = await sql`UPDATE achievements SET ${sql(fields(template))} WHERE id = ${template.id} AND club = ${template.club}`
      return result.count > 0
    },
    async replaceRequirements(templateId, requirements) {
      await sql`DELETE FROM requirements WHERE achievement_id = ${templateId}`
      return insertRequirements(templateId, requirements)
    },
    async incrementIssuedCount(templateId, by) {
      await sql`UPDATE achievements SET issued_count = issued_count + ${by} WHERE id = ${templateId}`
    },
    async countByClub(club) {
      const [row] = await sql`SELECT count(*) AS n FROM achievements WHERE club = ${club}`
      return num(row!.n)
    },
    async list(club, { limit, beforeId }) {
      const rows =
        beforeId === null
          ? await sql`SELECT ${sql.unsafe(WITH_REQUIREMENTS)} FROM achievements a WHERE a.club = ${club} ORDER BY a.id DESC LIMIT ${limit}`
          : await sql`SELECT ${sql.unsafe(WITH_REQUIREMENTS)} FROM achievements a WHERE a.club = ${club} AND a.id < ${beforeId} ORDER BY a.id DESC LIMIT ${limit}`
      return rows.map(toTemplateWithRequirements)
    },
  }
}
