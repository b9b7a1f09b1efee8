import { requireClub } from '../clubs/require.ts'
import { parseListQuery, toPage, type ListQuery, type Page } from '../lists/cursor.ts'
import { presentTemplate, type TemplateView } from './present.ts'
import { requireTemplate } from './require.ts'
import { badgeImageOf } from './design-refs.ts'
import type { IssuerContext } from '../context.ts'

export async function readTemplate(ctx: IssuerContext, clubDomain: string, id: number): Promise<TemplateView> {
  const club = await requireClub(ctx.storage, clubDomain)
  const template = await requireTemplate(ctx.storage, clubDomain, id)
  return presentTemplate(ctx.config, club, template, await badgeImageOf(ctx.storage, template))
}

/** The club's templates, newest first, as a cursor list (docs/api.md §4.10, docs/decisions/0009-lists.md). */
export async function listTemplates(ctx: IssuerContext, clubDomain: string, query: ListQuery): Promise<Page<TemplateView>> {
  const { limit, beforeId } = parseListQuery('achievements', query)
  const club = await requireClub(ctx.storage, clubDomain)
  const rows = await ctx.storage.achievements.list(clubDomain, { limit: limit + 1, beforeId })
  // One lookup per badge design on the page, not one per template (and none for the look-ahead row).
  const images = new Map<number, string | null>()
  for (const template of rows.slice(0, limit)) {
    if (template.badgeDesignId !== null && !images.has(template.badgeDesignId)) {
      images.set(template.badgeDesignId, await badgeImageOf(ctx.storage, template))
    }
  }
  return toPage('achievements', rows, limit, (template) =>
    presentTemplate(ctx.config, club, template, template.badgeDesignId === null ? null : (images.get(template.badgeDesignId) ?? null)),
  )
}
