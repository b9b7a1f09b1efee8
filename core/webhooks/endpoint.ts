import { ProblemError } from '../errors.ts'
import { EVENT_TYPES, isEventType } from '../events/event.ts'
import type { IssuerContext } from '../context.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'
import type { Sealer } from '../crypto/seal.ts'

/** An endpoint as the CLI and the library show it; never its secrets. */
export interface WebhookView {
  id: string
  club: string
  url: string
  events: string[]
  enabled: boolean
  /** Until when the secret before the last rotation still signs (ISO 8601), or `null`. */
  previousSecretUntil: string | null
  createdAt: string
}

export const presentWebhook = (e: WebhookEndpoint): WebhookView => ({
  id: e.id,
  club: e.club,
  url: e.url,
  events: e.events ?? [...EVENT_TYPES],
  enabled: e.enabled,
  previousSecretUntil: e.previousSecretUntil === null ? null : new Date(e.previousSecretUntil).toISOString(),
  createdAt: new Date(e.createdAt).toISOString(),
})

/** `null` (every type, also later ones) when absent; else known types, at least one. */
export function parseEventFilter(value: unknown): string[] | null {
  if (value === undefined || value === null) return null
  const types = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : null
  if (!types || types.length === 0 || !types.every(isEventType)) {
    throw new ProblemError('validation-failed', {
      detail: `events must name at least one of: ${EVENT_TYPES.join(' ')}.`,
      errors: [{ path: 'events', message: 'unknown event type' }],
    })
  }
  return [...new Set(types as string[])]
}

export function requireSealer(ctx: IssuerContext): Promise<Sealer> {
  if (!ctx.sealer) throw new TypeError('webhooks need the issuer to be created with `masterKey`: their secrets are sealed with it')
  return ctx.sealer()
}

export async function requireEndpoint(ctx: IssuerContext, id: string): Promise<WebhookEndpoint> {
  const endpoint = await ctx.storage.webhookEndpoints.findById(id)
  if (!endpoint) throw new ProblemError('webhook-not-found', { detail: `There is no webhook ${id}.` })
  return endpoint
}
