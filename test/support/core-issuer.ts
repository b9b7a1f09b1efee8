import type { KeyStore } from '../../core/ports/key-store.ts'
import type { StoragePort } from '../../core/ports/storage.ts'
import type { IssuerContext } from '../../core/context.ts'
import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { defaultUrls } from '../../core/config.ts'
import { createCoreIssuerFromContext, createIssuerContext, type IssuerOptions } from '../../core/create-core-issuer.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import { checkedStorage, type CheckedStorage } from './checked-storage.ts'
import { createTestClock, type TestClock } from './clock.ts'

/** A fixed master key: 32 bytes 0x00..0x1f. */
export const MASTER_KEY = Uint8Array.from({ length: 32 }, (_, i) => i)

export interface CoreHarness {
  issuer: CoreIssuer
  storage: CheckedStorage
  /** The ports the issuer runs on, for tests of core's internals (claims, leases) beside the issuer. */
  context: IssuerContext
  /** The issuer's key store (`context.keys`). */
  keys: KeyStore
  clock: TestClock
  close(): Promise<void>
}

/**
 * A core issuer on the memory storage (or on `storage`, which the issuer closes) wrapped in checked
 * storage, with a fixed master key and a clock the test moves. `close` also asserts that core never
 * misused the storage.
 */
export function createCoreHarness({
  storage: inner = createMemoryStorage(),
  ...options
}: Partial<Omit<IssuerOptions, 'storage' | 'clock'>> & { storage?: StoragePort } = {}): CoreHarness {
  const storage = checkedStorage(inner)
  const clock = createTestClock()
  const allOptions = { urls: defaultUrls(8787), masterKey: MASTER_KEY, ...options, storage, clock }
  const context = createIssuerContext(allOptions)
  const issuer = createCoreIssuerFromContext(context, allOptions)
  return {
    issuer,
    context,
    storage,
    keys: context.keys,
    clock,
    async close() {
      await issuer.close()
      storage.assertClean()
    },
  }
}

/** A club and a client of it; returns the client's credentials. */
export async function clubWithClient(issuer: CoreIssuer, domain = 'chess', scopes?: string[]) {
  if (!(await issuer.clubs.find(domain))) await issuer.clubs.create({ domain, name: `${domain} club` })
  return issuer.clients.create({ club: domain, ...(scopes ? { scopes } : {}) })
}
