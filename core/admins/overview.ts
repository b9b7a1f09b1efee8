import { listEvents, type EventView } from '../events/list.ts'
import type { ConsoleContext } from '../context.ts'
import { activityLines, weeklyActivity, type ActivityLine, type WeeklyActivity } from './activity.ts'

/** The console's first page: the club at a glance (docs/admin-console.md § Overview). */
export interface ClubOverview {
  club: { domain: string; name: string }
  templates: number
  /** Every issuance; then how many of them are pending (not signed yet), revoked and expired now. */
  issued: number
  pending: number
  revoked: number
  expired: number
  /** The club's latest events, newest first. */
  latestEvents: EventView[]
  /** The same events in words: who, which template, what (activity.ts). */
  latestActivity: ActivityLine[]
  /** Issued, taken into a wallet and expiring, per week (activity.ts). */
  weekly: WeeklyActivity
}

/** The overview of the session's club: only ever called with the club of the session. */
export async function readOverview(ctx: ConsoleContext, club: string, latest = 10): Promise<ClubOverview | null> {
  const found = await ctx.storage.clubs.findByDomain(club)
  if (!found) return null
  const now = ctx.clock.now()
  const [templates, counts, events, weekly] = await Promise.all([
    ctx.storage.achievements.countByClub(club),
    ctx.storage.issuances.countByStatus(club, now),
    listEvents(ctx, club, { limit: String(latest) }),
    weeklyActivity(ctx, club),
  ])
  return {
    club: { domain: found.domain, name: found.name },
    templates,
    issued: counts.total,
    pending: counts.pending,
    revoked: counts.revoked,
    expired: counts.expired,
    latestEvents: events.data,
    latestActivity: await activityLines(ctx, club, events.data),
    weekly,
  }
}
