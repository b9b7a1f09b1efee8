/**
 * The staff console's stores are a group an embedder's storage may leave out (core/ports/storage.ts
 * `ConsoleStores`, docs/decisions/0048-storage-port-per-store.md): such a storage compiles against the
 * port and runs core, the console is then off, and asking for the console over it fails at start with
 * the missing stores named. The type-level half is checked by `tsc -p .`, which reads this file: the
 * assignments without `@ts-expect-error` must compile, and those with it must not.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createLoginLimiter } from '../../../core/admins/login-limiter.ts'
import { requireConsoleStorage } from '../../../core/admins/console-storage.ts'
import { defaultUrls, DEFAULTS } from '../../../core/config.ts'
import { systemClock } from '../../../core/ports/clock.ts'
import type { ConsoleStoragePort, ConsoleStores, StoragePort, StorageUnits, Stores } from '../../../core/ports/storage.ts'
import { createIssuer } from '../../../index.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'

/** A storage as an embedder might write it: the stores core needs, none of the console's, in its units too. */
type EmbedderStorage = Stores & StorageUnits<Stores>

/** The stores of `stores` but the console's. */
function withoutConsole({ admins, adminSessions, adminPasskeys, passkeyChallenges, csvUploads, activity, ...rest }: Stores & ConsoleStores): Stores {
  return rest
}

/** The memory storage with the console's stores left out, on the port and in every unit. */
function embedderStorage(): EmbedderStorage {
  const inner = createMemoryStorage()
  return {
    ...withoutConsole(inner),
    transaction: (work, options) => inner.transaction((tx) => work(withoutConsole(tx)), options),
    ping: () => inner.ping(),
    close: () => inner.close(),
  }
}

const options = { masterKey: MASTER_KEY, urls: defaultUrls(8787) }
const CONSOLE_STORES = 'admins, adminSessions, adminPasskeys, passkeyChallenges, csvUploads, activity'

// The type-level proof: what tsc accepts and refuses.
{
  const embedder = embedderStorage()
  const port: StoragePort = embedder
  // @ts-expect-error a storage without the console's stores is no ConsoleStoragePort
  const consoleStorage: ConsoleStoragePort = embedder
  // @ts-expect-error the console's login limit demands the console's stores
  createLoginLimiter({ storage: port, clock: systemClock, limits: DEFAULTS.adminConsole })
  // The one way from a port to the console's: checked at run time.
  const checked: () => ConsoleStoragePort = () => requireConsoleStorage(port)
  void [consoleStorage, checked]
  void embedder.close()
}

describe('a storage without the console stores', () => {
  it('runs core: a credential is issued and signed, and the worker purges what it has', async () => {
    const issuer = createIssuer({ ...options, storage: embedderStorage() })
    try {
      assert.equal(issuer.consoleEnabled, false)
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const template = await issuer.achievements.create('chess', { name: '체스 입문', description: '기본 규칙을 배웠습니다.' })
      const { result } = await issuer.issuances.issue('chess', {
        achievementFormId: template.id,
        mode: 'none',
        recipients: [{ name: 'Kim Minsu', email: 'minsu@chess.example' }],
      })
      const issuanceId = (result.results[0] as { resourceId: number }).resourceId
      // The first round also runs the housekeeping purges, of the console's stores among them.
      await issuer.worker.runOnce()
      await issuer.worker.drain()
      const { credential } = await issuer.issuances.read('chess', issuanceId)
      assert.ok(credential, 'the credential was signed')
    } finally {
      await issuer.close()
    }
  })

  it('leaves the console off: no /admin/, and the console operations refuse with a TypeError', async () => {
    const issuer = createIssuer({ ...options, storage: embedderStorage() })
    try {
      const response = await issuer.fetch(new Request('http://localhost:8787/admin/login'))
      assert.equal(response.status, 404)
      await assert.rejects(() => issuer.admins.list('chess'), { name: 'TypeError', message: /staff console is off/ })
      await assert.rejects(() => issuer.csvUploads.progress('chess', 'upload'), { name: 'TypeError', message: /staff console is off/ })
    } finally {
      await issuer.close()
    }
  })

  it('asked for the console (`console: true`), the issuer refuses to start, naming every store the storage lacks', async () => {
    const storage = embedderStorage()
    try {
      assert.throws(() => createIssuer({ ...options, storage, console: true }), {
        name: 'TypeError',
        message: new RegExp(`the staff console needs the storage's console stores, and this storage lacks ${CONSOLE_STORES} `),
      })
    } finally {
      await storage.close()
    }
  })

  it('a storage with only some of the console stores is refused unless the console is off', async () => {
    const inner = createMemoryStorage()
    const half: StoragePort = { ...embedderStorage(), admins: inner.admins, adminSessions: inner.adminSessions }
    try {
      assert.throws(() => createIssuer({ ...options, storage: half }), {
        name: 'TypeError',
        message: /this storage lacks adminPasskeys, passkeyChallenges, csvUploads, activity /,
      })
      const off = createIssuer({ ...options, storage: half, console: false })
      assert.equal(off.consoleEnabled, false)
      await off.close()
    } finally {
      await inner.close()
    }
  })
})

describe('a storage with the console stores', () => {
  it('has the console on unless told `console: false`', async () => {
    const on = createIssuer({ ...options, storage: createMemoryStorage() })
    const off = createIssuer({ ...options, storage: createMemoryStorage(), console: false })
    try {
      assert.equal(on.consoleEnabled, true)
      assert.equal((await on.fetch(new Request('http://localhost:8787/admin/login'))).status, 200)
      assert.equal(off.consoleEnabled, false)
      assert.equal((await off.fetch(new Request('http://localhost:8787/admin/login'))).status, 404)
    } finally {
      await on.close()
      await off.close()
    }
  })
})
