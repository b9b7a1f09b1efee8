/** `2030-01-01`: the calendar day of an ISO instant in UTC, the time zone the credential is written in. */
export function calendarDay(iso: string): string {
  const time = Date.parse(iso)
  return Number.isNaN(time) ? iso : new Date(time).toISOString().slice(0, 10)
}

/** `2030-01-01 12:00 UTC`. */
export function minuteUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
