import * as v from 'valibot'

/**
 * A template's expiry reminders (docs/api.md §2.3 `expiryReminders`, docs/decisions/0047-claims-and-expiry.md):
 * at most 3 ISO 8601 durations, each from one minute to one year, none twice. Not engraved: the worker
 * reads the live template, so a change applies to every issuance whose reminder is still ahead.
 */
export const EXPIRY_REMINDERS_MAX = 3
const MINUTE = 60_000
const DAY = 86_400_000
/** One year, the longest reminder: 365 days, as a year counts in `durationMs`. */
const YEAR = 365 * DAY

/**
 * ISO 8601 durations as clubcred reads them: `PnYnMnWnD` then `TnHnMnS`, whole numbers. A year counts
 * 365 days and a month 30, in UTC, so that a reminder's time is `validUntil` minus one number of
 * milliseconds, the same on every node and for every issuance (docs/decisions/0047-claims-and-expiry.md).
 */
const DURATION = /^P(?:(\d{1,4})Y)?(?:(\d{1,4})M)?(?:(\d{1,4})W)?(?:(\d{1,5})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,7})M)?(?:(\d{1,9})S)?)?$/
const UNITS = [YEAR, 30 * DAY, 7 * DAY, DAY, 3_600_000, MINUTE, 1000]

/** The duration in milliseconds, or `null` when `text` is no duration of the form above. */
export function durationMs(text: string): number | null {
  const match = DURATION.exec(text)
  if (!match || text === 'P' || text.endsWith('T')) return null
  return UNITS.reduce((total, unit, i) => total + Number(match[i + 1] ?? 0) * unit, 0)
}

/** One reminder: a duration (`invalid-duration`) of one minute (`reminder-too-short`) to one year (`reminder-too-long`). */
const reminder = v.pipe(
  v.string('must-be-string'),
  v.trim(),
  v.toUpperCase(),
  v.check((text) => durationMs(text) !== null, 'invalid-duration'),
  v.check((text) => (durationMs(text) ?? MINUTE) >= MINUTE, 'reminder-too-short'),
  v.check((text) => (durationMs(text) ?? MINUTE) <= YEAR, 'reminder-too-long'),
)

/** The list as a template body sends it: `[]` or `null` for none; `too-many-reminders`, `duplicate-reminder`. */
export const expiryRemindersRule = v.pipe(
  v.nullable(v.array(reminder, 'must-be-array')),
  v.transform((list) => list ?? []),
  v.check((list) => list.length <= EXPIRY_REMINDERS_MAX, 'too-many-reminders'),
  v.check((list) => new Set(list.map(durationMs)).size === list.length, 'duplicate-reminder'),
  // Longest first, as they come due.
  v.transform((list) => [...list].sort((a, b) => durationMs(b)! - durationMs(a)!)),
)
