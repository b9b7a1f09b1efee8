import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import fc from 'fast-check'
import { ProblemError } from '../../../core/errors.ts'
import { SCOPE_NAMES } from '../../../core/scopes.ts'
import { hashSecret } from '../../../core/crypto/secret-hash.ts'
import { TEST_EPOCH } from '../../support/clock.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

describe('creating an API client', () => {
  let h: CoreHarness
  beforeEach(async () => {
    h = createCoreHarness()
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  })
  afterEach(() => h.close())

  it('returns id, secret and every scope in the order of docs/api.md §2.2 when none are asked for', async () => {
    const created = await h.issuer.clients.create({ club: 'chess' })
    assert.deepStrictEqual(Object.keys(created).sort(), ['client_id', 'client_secret', 'scopes'])
    assert.match(created.client_id, /^cc_[0-9a-f]{24}$/)
    assert.match(created.client_secret, /^ccs_[A-Za-z0-9_-]{43}$/)
    assert.deepStrictEqual(created.scopes, [...SCOPE_NAMES])
  })

  it('stores only a SHA-256 hash of the secret, bound to its club', async () => {
    const created = await h.issuer.clients.create({ club: 'chess', scopes: ['clubs:read'] })
    const stored = await h.storage.clients.findById(created.client_id)
    assert.deepStrictEqual(stored, {
      id: created.client_id,
      club: 'chess',
      secretHash: await hashSecret(created.client_secret),
      scopes: ['clubs:read'],
      secretSetAt: TEST_EPOCH,
      createdAt: TEST_EPOCH,
    })
    assert.ok(!JSON.stringify(stored).includes(created.client_secret.slice(4)))
  })

  it('keeps the asked scopes once each, in the order of docs/api.md §2.2', async () => {
    const created = await h.issuer.clients.create({ club: 'chess', scopes: ['events:read', 'clubs:read', 'events:read'] })
    assert.deepStrictEqual(created.scopes, ['clubs:read', 'events:read'])
  })

  it('any subset of the scopes is kept exactly, in the order of docs/api.md §2.2', async () => {
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray([...SCOPE_NAMES], { minLength: 1 }), async (scopes) => {
        const created = await h.issuer.clients.create({ club: 'chess', scopes })
        assert.deepStrictEqual(
          created.scopes,
          SCOPE_NAMES.filter((name) => scopes.includes(name)),
        )
      }),
      { numRuns: 25 },
    )
  })

  for (const scopes of [['clubs:read', 'clubs:write'], ['svc:openapi:clubs:read'], []]) {
    it(`refuses the scopes ${JSON.stringify(scopes)} with validation-failed unknown-scope`, async () => {
      await assert.rejects(h.issuer.clients.create({ club: 'chess', scopes }), (error) => {
        assert.ok(error instanceof ProblemError)
        assert.equal(error.code, 'validation-failed')
        assert.deepStrictEqual(error.errors, [{ message: 'unknown-scope', path: 'scopes' }])
        return true
      })
    })
  }

  it('a client of an unknown club is club-not-found and nothing is stored', async () => {
    await assert.rejects(h.issuer.clients.create({ club: 'ghost' }), (error) => {
      assert.ok(error instanceof ProblemError)
      assert.equal(error.code, 'club-not-found')
      return true
    })
    assert.equal(h.storage.units.committed, 1) // the club of beforeEach only
    assert.deepStrictEqual(h.storage.writes, ['clubs.insert'])
  })

  it('every client gets its own id and secret', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, () => h.issuer.clients.create({ club: 'chess' })))
    assert.equal(new Set(created.map((c) => c.client_id)).size, 10)
    assert.equal(new Set(created.map((c) => c.client_secret)).size, 10)
  })
})
