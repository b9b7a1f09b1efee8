import * as v from 'valibot'

/** Whether the calendar date of an ISO timestamp exists (valibot's isoTimestamp lets 2024-02-30 through). */
export const isCalendarDate = (value: string): boolean => {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** An ISO 8601 date-time, kept as sent. */
export const isoDateTimeText = v.pipe(v.string('must-be-string'), v.isoTimestamp('invalid-date-time'), v.check(isCalendarDate, 'invalid-date-time'))
