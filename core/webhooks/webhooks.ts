import { createWebhook, deleteWebhook, rotateWebhookSecret, updateWebhook, type CreateWebhookInput, type UpdateWebhookInput } from './manage.ts'
import { listDeliveries, listWebhooks, replayWebhook, type DeliveryView } from './log.ts'
import type { WebhookView } from './endpoint.ts'
import type { IssuerContext } from '../context.ts'

/** The webhook operations of the library API; the admin CLI's `webhook ...` commands call these. */
export interface Webhooks {
  /** The secret is in the answer this once. */
  create(input: CreateWebhookInput): Promise<WebhookView & { secret: string }>
  list(club: string): Promise<WebhookView[]>
  update(id: string, input: UpdateWebhookInput): Promise<WebhookView>
  /** The new secret is in the answer this once; the old one signs beside it for 24 h. */
  rotateSecret(id: string): Promise<WebhookView & { secret: string }>
  delete(id: string): Promise<{ id: string; deleted: true }>
  /** The delivery log, newest first; the next page is below the last delivery's id (`beforeId`). */
  deliveries(id: string, limit?: number, beforeId?: number | null): Promise<DeliveryView[]>
  /** Delivers again every event after `afterEventId`, up to `throughEventId` when given (one event: its id and the id before). */
  replay(id: string, afterEventId: string, throughEventId?: string | null): Promise<{ id: string; replayed: number }>
}

export function createWebhooks(ctx: IssuerContext): Webhooks {
  return {
    create: (input) => createWebhook(ctx, input),
    list: (club) => listWebhooks(ctx, club),
    update: (id, input) => updateWebhook(ctx, id, input),
    rotateSecret: (id) => rotateWebhookSecret(ctx, id),
    delete: (id) => deleteWebhook(ctx, id),
    deliveries: (id, limit, beforeId) => listDeliveries(ctx, id, limit, beforeId),
    replay: (id, after, through) => replayWebhook(ctx, id, after, through),
  }
}
