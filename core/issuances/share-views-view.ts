import * as v from 'valibot'

/**
 * The members the issuance detail gains from share page views (docs/api.md §2.6): how many people
 * viewed the credential's share page (`shareViews`, link previews not counted) and when last
 * (`lastViewedAt`, `null` never); a number, never who. Kept apart so that other parts of the detail
 * grow beside it.
 */
export const shareViewsViewEntries = {
  shareViews: v.number(),
  lastViewedAt: v.nullable(v.string()),
}
export type ShareViewsView = v.InferOutput<v.ObjectSchema<typeof shareViewsViewEntries, undefined>>

export function presentShareViews(counted: { views: number; lastViewedAt: number } | null): ShareViewsView {
  return { shareViews: counted?.views ?? 0, lastViewedAt: counted ? new Date(counted.lastViewedAt).toISOString() : null }
}
