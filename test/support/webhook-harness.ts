import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { createWebhookTransport, type WebhookTransportOptions } from '../../adapters/node/webhook-transport.ts'
import { defaultUrls, type WebhookLimits } from '../../core/config.ts'
import { createCoreIssuerFromContext, createIssuerContext } from '../../core/create-core-issuer.ts'
import { checkedStorage } from './checked-storage.ts'
import { createTestClock } from './clock.ts'
import { MASTER_KEY } from './core-issuer.ts'

/**
 * A core issuer whose webhooks go out through the real Node transport. The clock starts near real time
 * (`start`, default now), because receivers check `webhook-timestamp` against their own clock (5 min).
 */
export function webhookHarness({
  start = Date.now(),
  webhooks = {},
  transport = {},
  pollMs,
}: { start?: number; webhooks?: Partial<WebhookLimits>; transport?: WebhookTransportOptions; pollMs?: number } = {}) {
  const storage = checkedStorage(createMemoryStorage())
  const clock = createTestClock(start)
  const options = {
    urls: defaultUrls(8787),
    masterKey: MASTER_KEY,
    storage,
    clock,
    webhooks: { allowPrivate: true, ...webhooks },
    webhookTransport: createWebhookTransport(transport),
    worker: { onError: () => {}, pollMs },
  }
  const context = createIssuerContext(options)
  const issuer = createCoreIssuerFromContext(context, options)
  return {
    issuer,
    storage,
    clock,
    context,
    async close() {
      await issuer.close()
      storage.assertClean()
    },
  }
}
