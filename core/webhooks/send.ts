import { appendEvent } from '../events/append.ts'
import { GIVE_UPS_BEFORE_DISABLE, MAX_ATTEMPTS, nextAttemptAt } from './schedule.ts'
import { signatureHeader } from './signature.ts'
import { addressRule } from './url.ts'
import { requireSealer } from './endpoint.ts'
import type { IssuerContext } from '../context.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'
import type { WebhookTransport } from '../ports/webhook-transport.ts'
import type { WebhookOutcome } from '../ports/metrics.ts'

/** The endpoint's secrets that sign now: the current one, and the one before it during the overlap. */
async function signingSecrets(ctx: IssuerContext, endpoint: WebhookEndpoint, now: number): Promise<string[]> {
  const sealer = await requireSealer(ctx)
  const secrets = [await sealer.open(endpoint.sealedSecret, endpoint.id)]
  if (endpoint.previousSealedSecret && endpoint.previousSecretUntil !== null && now < endpoint.previousSecretUntil) {
    secrets.push(await sealer.open(endpoint.previousSealedSecret, endpoint.id))
  }
  return secrets
}

/** What one attempt came to, to be stored with others in one unit of work. */
export interface DeliveryOutcome {
  delivery: WebhookDelivery
  endpoint: WebhookEndpoint
  /** The answer's status, or `null` when there was none (refused address, timeout, connection). */
  status: number | null
  error: string
  at: number
}

/**
 * One attempt of a claimed delivery: signed with the secrets that sign now and sent. `null` when the
 * endpoint was deleted since the claim (its deliveries went with it).
 */
export async function attemptDelivery(ctx: IssuerContext, transport: WebhookTransport, delivery: WebhookDelivery): Promise<DeliveryOutcome | null> {
  const endpoint = await ctx.storage.webhookEndpoints.findById(delivery.endpointId)
  if (!endpoint) return null
  const started = ctx.clock.now()
  const timestamp = Math.floor(started / 1000)
  const webhookId = String(delivery.eventId)
  let status: number | null = null
  let error: string
  try {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'clubcred-webhooks',
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await signatureHeader(await signingSecrets(ctx, endpoint, started), webhookId, timestamp, delivery.payload),
    }
    const { connectTimeoutMs, timeoutMs, allowPrivate } = ctx.config.webhooks
    const answer = await transport.send({
      url: endpoint.url,
      headers,
      body: delivery.payload,
      connectTimeoutMs,
      timeoutMs,
      acceptAddress: addressRule(allowPrivate),
    })
    status = answer.status
    error = `HTTP ${status}`
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause)
  }
  return { delivery, endpoint, status, error, at: ctx.clock.now() }
}

/**
 * Stores the outcomes of attempts, in the order they ended: 2xx delivers; anything else (status,
 * refused address, timeout) schedules the next attempt or, after the last, gives the delivery up. An
 * endpoint counts its give-ups in a row (a delivery resets the count); the
 * `GIVE_UPS_BEFORE_DISABLE`-th disables it, with a `webhook.disabled` event. Returns what each attempt
 * came to, for the metrics once the unit commits.
 */
export async function recordOutcomes(tx: UnitOfWork, outcomes: DeliveryOutcome[]): Promise<WebhookOutcome[]> {
  const recorded: WebhookOutcome[] = []
  const endpoints = new Map<string, { giveUps: number; enabled: boolean; changed: boolean; disabled: boolean } | null>()
  const current = async (id: string) => {
    if (!endpoints.has(id)) {
      const found = await tx.webhookEndpoints.findById(id)
      endpoints.set(id, found && { giveUps: found.consecutiveGiveUps, enabled: found.enabled, changed: false, disabled: false })
    }
    return endpoints.get(id)!
  }
  for (const { delivery, endpoint, status, error, at } of outcomes) {
    if (status !== null && status >= 200 && status < 300) {
      await tx.webhookDeliveries.markDelivered(delivery.id, at, status)
      recorded.push('delivered')
      const state = await current(endpoint.id)
      if (state && state.giveUps > 0) Object.assign(state, { giveUps: 0, changed: true })
      continue
    }
    const next = delivery.attempts < MAX_ATTEMPTS ? nextAttemptAt(at, delivery.attempts, Math.random) : null
    if (next !== null) {
      await tx.webhookDeliveries.markFailed(delivery.id, { status, error, nextAttemptAt: next })
      recorded.push('failed')
      continue
    }
    await tx.webhookDeliveries.markGivenUp(delivery.id, at, { status, error })
    recorded.push('given-up')
    const state = await current(endpoint.id)
    if (!state) continue
    const disable = state.enabled && state.giveUps + 1 >= GIVE_UPS_BEFORE_DISABLE
    Object.assign(state, { giveUps: state.giveUps + 1, changed: true, enabled: state.enabled && !disable, disabled: state.disabled || disable })
    if (disable) await appendEvent(tx, { club: endpoint.club, type: 'webhook.disabled', subject: { type: 'webhook', id: endpoint.id }, occurredAt: at })
  }
  for (const [id, state] of endpoints) {
    if (state?.changed) await tx.webhookEndpoints.update(id, { consecutiveGiveUps: state.giveUps, ...(state.disabled && { enabled: false }) })
  }
  return recorded
}
