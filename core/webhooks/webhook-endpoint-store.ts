import type { WebhookEndpoint } from './webhook-endpoint.ts'

export interface WebhookEndpointStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(endpoint: WebhookEndpoint): Promise<void>
  findById(id: string): Promise<WebhookEndpoint | null>
  /** The club's endpoints, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByClub(club: string): Promise<WebhookEndpoint[]>
  /** Sets the listed fields; returns the updated endpoint, `null` (changing nothing) when absent. */
  update(
    id: string,
    changes: Partial<
      Pick<WebhookEndpoint, 'url' | 'events' | 'enabled' | 'sealedSecret' | 'previousSealedSecret' | 'previousSecretUntil' | 'consecutiveGiveUps'>
    >,
  ): Promise<WebhookEndpoint | null>
  /** Deletes the endpoint and MUST delete its deliveries with it. Returns `false` when there was none. */
  delete(id: string): Promise<boolean>
}
