import { appendEvent } from '../events/append.ts'
import { GIVE_UPS_BEFORE_DISABLE, MAX_ATTEMPTS, nextAttemptAt } from './schedule.ts'
import { signatureHeader } from './signature.ts'
import { addressRule } from './url.ts'
import { requireSealer } from './endpoint.ts'
import type { IssuerContext } from '../context.ts'
import type { WebhookDelivery, WebhookEndpoint } from '../ports/storage.ts'
import type { WebhookTransport } from '../ports/webhook-transport.ts'

/** The endpoint's secrets that sign now: the current one, and the one before it during the overlap. */
async function signingSecrets(ctx: IssuerContext, endpoint: WebhookEndpoint, now: number): Promise<string[]> {
  const sealer = await requireSealer(ctx)
  const secrets = [await sealer.open(endpoint.sealedSecret, endpoint.id)]
  if (endpoint.previousSealedSecret && endpoint.previousSecretUntil !== null && now < endpoint.previousSecretUntil) {
    secrets.push(await sealer.open(endpoint.previousSealedSecret, endpoint.id))
  }
  return secrets
}

/**
 * One attempt of a claimed delivery, and its outcome recorded: 2xx delivers it; anything else (status,
 * refused address, timeout) schedules the next attempt or, after the last, gives it up, and the
 * endpoint's `GIVE_UPS_BEFORE_DISABLE`-th give-up in a row disables it with a `webhook.disabled` event.
 */
export async function attemptDelivery(ctx: IssuerContext, transport: WebhookTransport, delivery: WebhookDelivery): Promise<void> {
  const endpoint = await ctx.storage.webhookEndpoints.findById(delivery.endpointId)
  if (!endpoint) return // deleted since the claim; its deliveries went with it
  const started = ctx.clock.now()
  const timestamp = Math.floor(started / 1000)
  const webhookId = String(delivery.eventId)
  let status: number | null = null
  let error = ''
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
  const now = ctx.clock.now()
  await ctx.storage.transaction(async (tx) => {
    if (status !== null && status >= 200 && status < 300) {
      await tx.webhookDeliveries.markDelivered(delivery.id, now, status)
      if (endpoint.consecutiveGiveUps > 0) await tx.webhookEndpoints.update(endpoint.id, { consecutiveGiveUps: 0 })
      return
    }
    const next = delivery.attempts < MAX_ATTEMPTS ? nextAttemptAt(now, delivery.attempts, Math.random) : null
    if (next !== null) return tx.webhookDeliveries.markFailed(delivery.id, { status, error, nextAttemptAt: next })
    await tx.webhookDeliveries.markGivenUp(delivery.id, now, { status, error })
    const current = await tx.webhookEndpoints.findById(endpoint.id)
    if (!current) return
    const giveUps = current.consecutiveGiveUps + 1
    const disable = current.enabled && giveUps >= GIVE_UPS_BEFORE_DISABLE
    await tx.webhookEndpoints.update(endpoint.id, { consecutiveGiveUps: giveUps, ...(disable && { enabled: false }) })
    if (disable) await appendEvent(tx, { club: endpoint.club, type: 'webhook.disabled', subject: { type: 'webhook', id: endpoint.id }, occurredAt: now })
  })
}
