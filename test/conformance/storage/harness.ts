import { afterEach, beforeEach, it } from 'node:test'
import type { ApiClient } from '../../../core/clients/api-client.ts'
import type { Club } from '../../../core/clubs/club.ts'
import type { ConsoleStoragePort, StoredKey } from '../../../core/ports/storage.ts'

/** A fresh, empty store and how to dispose of it (close the storage, remove its files). */
export interface OpenedStorage {
  storage: ConsoleStoragePort
  close(): Promise<void>
}

export type OpenStorage = () => Promise<OpenedStorage>

/** Cases an adapter cannot pass yet, each with a reason that shows in the test output (docs/architecture.md § Layers). */
export type SkipList = { reason: string; tests: string[] }[]

/** What every group of cases receives besides `open`. */
export interface CaseOptions {
  skip?: SkipList
}

/** A group of conformance cases: declares its own `describe`/`it` blocks. */
export type StorageCases = (open: OpenStorage, options?: CaseOptions) => void

/**
 * Registers beforeEach/afterEach in the calling `describe` so that every test gets a fresh empty
 * store; returns the accessor for the current one.
 */
export function freshStore(open: OpenStorage): () => ConsoleStoragePort {
  let current: OpenedStorage | undefined
  beforeEach(async () => {
    current = await open()
  })
  afterEach(async () => {
    const opened = current
    current = undefined
    await opened?.close()
  })
  return () => {
    if (!current) throw new Error('no store open: call the accessor inside a test')
    return current.storage
  }
}

/** `it`, honouring the adapter's skip list: a skipped case shows its reason in the output. */
export function caseRunner(options: CaseOptions = {}) {
  return (name: string, fn: () => Promise<void>) => {
    const skipped = options.skip?.find((entry) => entry.tests.includes(name))
    if (skipped) it(name, { skip: skipped.reason }, fn)
    else it(name, fn)
  }
}

// Fixtures: plain object literals, so that `deepStrictEqual` against what comes back also proves the
// adapter returns plain objects (a null-prototype row fails it).

export function aClub(overrides: Partial<Club> = {}): Club {
  return { domain: 'chess', name: 'Chess Club', canIssue: true, issuerVerified: false, createdAt: 1_900_000_000_123, ...overrides }
}

export function aClient(overrides: Partial<ApiClient> = {}): ApiClient {
  return {
    id: 'cc_0123456789abcdef01234567',
    club: 'chess',
    secretHash: 'sha256$47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU',
    scopes: ['issuance:write', 'clubs:read'],
    secretSetAt: 1_900_000_000_000,
    createdAt: 1_900_000_000_000,
    ...overrides,
  }
}

export function aKey(overrides: Partial<StoredKey> = {}): StoredKey {
  return {
    kid: 'kid-a',
    owner: 'platform',
    alg: 'ES256',
    publicJwk: {
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    },
    sealedPrivateKey: 'v1.aXZpdml2aXZpdml2.Y2lwaGVydGV4dA',
    active: true,
    createdAt: 1_900_000_000_000,
    ...overrides,
  }
}

/** Resolves after the event loop has turned `turns` times: lets other pending work run. */
export async function turns(count = 3): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
}

/** A promise with its resolve function outside, to hold a unit of work open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
