import type { ConsoleContext } from '../context.ts'
import type { EventView } from '../events/present.ts'

/** An event of the overview told in words (docs/admin-console.md § Overview): who, which template, what. */
export interface ActivityLine {
  occurredAt: string
  type: string
  /** The recipient's name, for an event about an issuance of the club; `null` otherwise. */
  who: string | null
  /** The template's name as issued; `null` when the event is not about an issuance. */
  template: string | null
}

/** The overview chart: per week (Monday 00:00 UTC), issuances made, first taken into a wallet, and expiring. */
export interface WeeklyActivity {
  /** The first day of each week, `YYYY-MM-DD`. */
  weeks: string[]
  issued: number[]
  claimed: number[]
  expiring: number[]
}

const WEEK = 7 * 86_400_000
/** 1970-01-01 was a Thursday: Mondays are 4 days after a multiple of a week. */
const MONDAY = 4 * 86_400_000

/** The events with their issuance's recipient and template, looked up at once for the lot. */
export async function activityLines(ctx: ConsoleContext, club: string, events: EventView[]): Promise<ActivityLine[]> {
  const ids = events.filter((event) => event.subject.type === 'issuance').map((event) => Number(event.subject.id))
  const issuances = new Map((await ctx.storage.issuances.findByIds(club, [...new Set(ids)])).map((issuance) => [String(issuance.id), issuance]))
  const names = new Map<number, string>()
  for (const issuance of issuances.values()) {
    if (!names.has(issuance.snapshotId)) names.set(issuance.snapshotId, (await ctx.storage.snapshots.findById(issuance.snapshotId))?.view.name ?? '')
  }
  return events.map((event) => {
    const issuance = event.subject.type === 'issuance' ? issuances.get(event.subject.id) : undefined
    return {
      occurredAt: event.occurredAt,
      type: event.type,
      who: issuance?.recipient.name ?? null,
      template: issuance ? (names.get(issuance.snapshotId) ?? null) : null,
    }
  })
}

/** The last `weeks` weeks, this one included, of the club's activity. */
export async function weeklyActivity(ctx: ConsoleContext, club: string, weeks = 8): Promise<WeeklyActivity> {
  const now = ctx.clock.now()
  const thisWeek = Math.floor((now - MONDAY) / WEEK) * WEEK + MONDAY
  const from = thisWeek - (weeks - 1) * WEEK
  const counts = await ctx.storage.activity.weekly(club, from, WEEK, weeks)
  return { weeks: Array.from({ length: weeks }, (_, i) => new Date(from + i * WEEK).toISOString().slice(0, 10)), ...counts }
}
