import { requireClub } from '../clubs/require.ts'
import { parseListQuery, toPage, type ListQuery, type Page } from '../lists/cursor.ts'
import { presentDesign, type DesignView } from './present.ts'
import { requireDesign } from './write.ts'
import type { IssuerContext } from '../context.ts'

export async function readDesign(ctx: IssuerContext, club: string, id: number): Promise<DesignView> {
  return presentDesign(ctx.config, await requireDesign(ctx.storage, club, id))
}

export async function listDesigns(ctx: IssuerContext, club: string, query: ListQuery): Promise<Page<DesignView>> {
  const { limit, beforeId } = parseListQuery('designs', query)
  await requireClub(ctx.storage, club)
  const rows = await ctx.storage.designs.list(club, { limit: limit + 1, beforeId })
  return toPage('designs', rows, limit, (design) => presentDesign(ctx.config, design))
}
