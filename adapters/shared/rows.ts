import type { SigningJob, WebhookDelivery, WebhookEndpoint } from '../../core/ports/storage.ts'

/**
 * Row mappers the SQL adapters share: both name columns alike, and these readers take either driver's
 * values (SQLite hands booleans over as 0/1, PostgreSQL as booleans; PostgreSQL hands int8 over as strings,
 * every one of them below 2^53, so `Number` is exact).
 */
export type SqlRow = Record<string, unknown>

const num = (value: unknown): number => Number(value)
const str = (value: unknown): string => String(value)
const bool = (value: unknown): boolean => value === true || value === 1 || value === 1n
const nullableStr = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
const nullableNum = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))

export const toSigningJob = (row: SqlRow): SigningJob => ({
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  statusListId: nullableNum(row.status_list_id),
  statusListIndex: nullableNum(row.status_list_index),
  attempts: num(row.attempts),
  leaseUntil: nullableNum(row.lease_until),
  lastError: nullableStr(row.last_error),
})

export const toWebhookEndpoint = (row: SqlRow): WebhookEndpoint => ({
  id: str(row.id),
  club: str(row.club),
  url: str(row.url),
  events: row.events === null ? null : (JSON.parse(str(row.events)) as string[]),
  sealedSecret: str(row.sealed_secret),
  previousSealedSecret: nullableStr(row.previous_sealed_secret),
  previousSecretUntil: nullableNum(row.previous_secret_until),
  enabled: bool(row.enabled),
  consecutiveGiveUps: num(row.consecutive_give_ups),
  createdAt: num(row.created_at),
})

export const toWebhookDelivery = (row: SqlRow): WebhookDelivery => ({
  id: num(row.id),
  endpointId: str(row.endpoint_id),
  club: str(row.club),
  eventId: num(row.event_id),
  payload: str(row.payload),
  attempts: num(row.attempts),
  nextAttemptAt: num(row.next_attempt_at),
  leaseUntil: nullableNum(row.lease_until),
  deliveredAt: nullableNum(row.delivered_at),
  givenUpAt: nullableNum(row.given_up_at),
  lastStatus: nullableNum(row.last_status),
  lastError: nullableStr(row.last_error),
  createdAt: num(row.created_at),
})
