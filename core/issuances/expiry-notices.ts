import { durationMs } from '../achievements/expiry-reminders.ts'

/**
 * Which reminder an issuance gets when a sweep first sees it (docs/decisions/0047-claims-and-expiry.md):
 * made inside a reminder's window (its time, `validUntil` minus the duration, already passed), it gets the
 * innermost such reminder at once, and none of the wider ones whose time had passed too: one mail
 * saying "7 days left", not also "30 days left". `null` when no reminder's time has passed, or the
 * credential has expired already. `reminders` are durations (core/achievements/expiry-reminders.ts).
 */
export function reminderAtOnce(reminders: readonly string[], validUntil: number, now: number): string | null {
  if (now >= validUntil) return null
  const passed = reminders.filter((reminder) => validUntil - durationMs(reminder)! <= now)
  if (passed.length === 0) return null
  return passed.reduce((innermost, reminder) => (durationMs(reminder)! < durationMs(innermost)! ? reminder : innermost))
}

/**
 * Whether a reminder found due by its sweep is sent: only when its time came after the issuance was made
 * (one whose time had passed before is `reminderAtOnce`'s to judge) and the credential has not expired.
 */
export function reminderInTime(reminder: string, validUntil: number, createdAt: number, now: number): boolean {
  return validUntil - durationMs(reminder)! > createdAt && now < validUntil
}
