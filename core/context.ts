import type { IssuerConfig } from './config.ts'
import type { FailureLimiter } from './clients/failure-limiter.ts'
import type { Clock } from './ports/clock.ts'
import type { KeyStore } from './ports/key-store.ts'
import type { RandomSource } from './ports/random.ts'
import type { StoragePort } from './ports/storage.ts'

/** What every core verb receives: the configuration and the ports, wired once by `createIssuer`. */
export interface IssuerContext {
  config: IssuerConfig
  storage: StoragePort
  keys: KeyStore
  clock: Clock
  random: RandomSource
  clientAuthFailures: FailureLimiter
}
