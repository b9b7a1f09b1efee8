import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { defaultUrls } from '../../../core/config.ts'
import { StorageUnavailable } from '../../../core/errors.ts'
import { createCoreIssuer } from '../../../core/create-core-issuer.ts'
import { noMetrics, type MetricsPort } from '../../../core/ports/metrics.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'
import { tokenFor } from '../../support/tokens.ts'
import { clubWithClient, createCoreHarness, MASTER_KEY } from '../../support/core-issuer.ts'

const SIGNS = { signs: true, maxSigningAgeMs: 60_000 }

function issuerOn(storage: StoragePort, metrics?: MetricsPort) {
  return createCoreIssuer({ storage, masterKey: MASTER_KEY, urls: defaultUrls(8787), ...(metrics ? { metrics } : {}) })
}

describe('readiness', () => {
  it('a process that signs is ready only while its worker runs; one that does not sign needs the storage alone', async () => {
    const { issuer, close } = createCoreHarness()
    try {
      assert.deepEqual(await issuer.health.readiness(SIGNS), { ready: false, reason: 'worker-stopped' })
      assert.deepEqual(await issuer.health.readiness({ ...SIGNS, signs: false }), { ready: true })
      issuer.worker.start()
      assert.deepEqual(await issuer.health.readiness(SIGNS), { ready: true })
      await issuer.worker.stop()
      assert.deepEqual(await issuer.health.readiness(SIGNS), { ready: false, reason: 'worker-stopped' })
    } finally {
      await close()
    }
  })

  it('the queue state counts pending jobs and ages the oldest on the issuer clock', async () => {
    const { issuer, clock, close } = createCoreHarness()
    try {
      assert.deepEqual(await issuer.health.signingQueue(), { depth: 0, oldestAgeMs: 0 })
      await clubWithClient(issuer)
      const template = await issuer.achievements.create('chess', { name: 'Opening', description: 'Knows an opening.', tag: ['chess'] })
      const recipients = [0, 1].map((i) => ({ externalUserId: `m-${i}`, name: `Member ${i}`, email: `m${i}@example.org` }))
      await issuer.issuances.issue('chess', { achievementFormId: template.id, mode: 'none', recipients })
      clock.advance(90_000)
      assert.deepEqual(await issuer.health.signingQueue(), { depth: 2, oldestAgeMs: 90_000 })
      await issuer.worker.drain()
      assert.deepEqual(await issuer.health.signingQueue(), { depth: 0, oldestAgeMs: 0 })
    } finally {
      await close()
    }
  })

  it('a storage that does not answer is storage-unavailable, an old schema migrations-pending, checked in that order', async () => {
    const down = issuerOn({
      ...createMemoryStorage(),
      ping: () => Promise.reject(new StorageUnavailable('database unavailable (ECONNREFUSED)')),
    })
    assert.deepEqual(await down.health.readiness({ ...SIGNS, signs: false }), { ready: false, reason: 'storage-unavailable' })
    const old = issuerOn({ ...createMemoryStorage(), ping: async () => ({ migrated: false }) })
    assert.deepEqual(await old.health.readiness({ ...SIGNS, signs: false }), { ready: false, reason: 'migrations-pending' })
  })
})

describe('metrics observed by core', () => {
  it('counts StorageUnavailable from the storage, token outcomes and verdicts; a conflict is no storage error', async () => {
    const seen: string[] = []
    const spy: MetricsPort = {
      ...noMetrics,
      storageError: (kind) => void seen.push(`storage ${kind}`),
      tokenRequest: (outcome) => void seen.push(`token ${outcome}`),
      verification: (verdict) => void seen.push(`verdict ${verdict}`),
    }
    const memory = createMemoryStorage()
    let failClubs = false
    const clubs = memory.clubs
    const storage: StoragePort = {
      ...memory,
      clubs: {
        ...clubs,
        findByDomain: (domain) => (failClubs ? Promise.reject(new StorageUnavailable('database unavailable')) : clubs.findByDomain(domain)),
      },
    }
    const issuer = issuerOn(storage, spy)
    const client = await clubWithClient(issuer)
    await assert.rejects(issuer.clubs.create({ domain: 'chess', name: 'again' }))
    await tokenFor(issuer, client)
    await assert.rejects(tokenFor(issuer, { ...client, client_secret: 'wrong' }))
    assert.equal((await issuer.verification.verify(12345)).statusCode, 404)
    failClubs = true
    await assert.rejects(issuer.clubs.find('chess'), StorageUnavailable)
    assert.deepEqual(seen, ['token issued', 'token invalid_client', 'verdict not-found', 'storage unavailable'])
    await issuer.close()
  })
})
