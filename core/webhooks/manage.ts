import { ProblemError } from '../errors.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { parseEventFilter, presentWebhook, requireEndpoint, requireSealer, type WebhookView } from './endpoint.ts'
import { newWebhookSecret } from './signature.ts'
import { checkWebhookUrl } from './url.ts'
import type { IssuerContext } from '../context.ts'

/** How long the secret before a rotation keeps signing beside the new one, so receivers can switch. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

export interface CreateWebhookInput {
  club: string
  url: string
  /** Event types (array, or one string separated by spaces); every type when absent. */
  events?: string[] | string | null
}

/** Creates an endpoint; the secret is returned this once and stored only sealed. */
export async function createWebhook(ctx: IssuerContext, input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
  const url = checkWebhookUrl(input.url, ctx.config.webhooks.allowPrivate)
  const events = parseEventFilter(input.events)
  const id = `wh_${toBase64Url(ctx.random.bytes(12))}`
  const secret = newWebhookSecret(ctx.random.bytes(24))
  const sealedSecret = await (await requireSealer(ctx)).seal(secret, id)
  const now = ctx.clock.now()
  const endpoint = {
    id,
    club: input.club,
    url,
    events,
    sealedSecret,
    previousSealedSecret: null,
    previousSecretUntil: null,
    enabled: true,
    consecutiveGiveUps: 0,
    createdAt: now,
  }
  await ctx.storage.transaction(
    async (tx) => {
      if (!(await tx.clubs.findByDomain(input.club))) throw new ProblemError('club-not-found', { detail: `There is no club ${input.club}.` })
      await tx.webhookEndpoints.insert(endpoint)
    },
    { club: input.club },
  )
  return { ...presentWebhook(endpoint), secret }
}

export interface UpdateWebhookInput {
  url?: string
  events?: string[] | string | null
  enabled?: boolean
}

/** Changes the URL, the event filter or whether it is enabled; enabling forgets past give-ups. */
export async function updateWebhook(ctx: IssuerContext, id: string, input: UpdateWebhookInput): Promise<WebhookView> {
  const changes = {
    ...(input.url !== undefined && { url: checkWebhookUrl(input.url, ctx.config.webhooks.allowPrivate) }),
    ...(input.events !== undefined && { events: parseEventFilter(input.events) }),
    ...(input.enabled !== undefined && { enabled: input.enabled === true, ...(input.enabled === true && { consecutiveGiveUps: 0 }) }),
  }
  const updated = await ctx.storage.transaction((tx) => tx.webhookEndpoints.update(id, changes), { concurrent: true })
  if (!updated) throw new ProblemError('webhook-not-found', { detail: `There is no webhook ${id}.` })
  return presentWebhook(updated)
}

/** A new secret; the current one keeps signing beside it for `ROTATION_OVERLAP_MS`. */
export async function rotateWebhookSecret(ctx: IssuerContext, id: string): Promise<WebhookView & { secret: string }> {
  const endpoint = await requireEndpoint(ctx, id)
  const secret = newWebhookSecret(ctx.random.bytes(24))
  const sealedSecret = await (await requireSealer(ctx)).seal(secret, id)
  const updated = await ctx.storage.transaction(
    (tx) =>
      tx.webhookEndpoints.update(id, {
        sealedSecret,
        previousSealedSecret: endpoint.sealedSecret,
        previousSecretUntil: ctx.clock.now() + ROTATION_OVERLAP_MS,
      }),
    { concurrent: true },
  )
  if (!updated) throw new ProblemError('webhook-not-found', { detail: `There is no webhook ${id}.` })
  return { ...presentWebhook(updated), secret }
}

export async function deleteWebhook(ctx: IssuerContext, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await ctx.storage.transaction((tx) => tx.webhookEndpoints.delete(id), { concurrent: true }))) {
    throw new ProblemError('webhook-not-found', { detail: `There is no webhook ${id}.` })
  }
  return { id, deleted: true }
}
