import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { ProblemError } from '../../../core/errors.ts'
import { TEST_EPOCH } from '../../support/clock.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

/** Asserts a 422-style validation problem with exactly these field errors. */
function isValidationFailed(expected: { message: string; path: string }[]) {
  return (error: unknown) => {
    assert.ok(error instanceof ProblemError, `expected a ProblemError, got ${error}`)
    assert.equal(error.code, 'validation-failed')
    assert.deepStrictEqual(error.errors, expected)
    return true
  }
}

describe('creating a club', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness()
  })
  afterEach(() => h.close())

  it('stores the club with issuing allowed, not verified, created now', async () => {
    const club = await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    const expected = { domain: 'chess', name: 'Chess Club', canIssue: true, issuerVerified: false, createdAt: TEST_EPOCH }
    assert.deepStrictEqual(club, expected)
    assert.deepStrictEqual(await h.issuer.clubs.find('chess'), expected)
    assert.deepStrictEqual(h.storage.writes, ['clubs.insert'])
  })

  it('trims the name and can create a club that may not issue', async () => {
    const club = await h.issuer.clubs.create({ domain: 'go-9', name: '  Go Club  ', canIssue: false })
    assert.equal(club.name, 'Go Club')
    assert.equal(club.canIssue, false)
  })

  for (const domain of ['Chess', 'chess_club', '-chess', 'chess-', 'ch.ess', '', 'a'.repeat(64), 'échecs', 'chess club']) {
    it(`refuses the domain ${JSON.stringify(domain)} with validation-failed and stores nothing`, async () => {
      await assert.rejects(h.issuer.clubs.create({ domain, name: 'Chess Club' }), isValidationFailed([{ message: 'invalid-club-domain', path: 'domain' }]))
      assert.equal(await h.storage.clubs.count(), 0)
    })
  }

  it('accepts a domain of 63 characters, the longest DNS label', async () => {
    const domain = 'a'.repeat(63)
    assert.equal((await h.issuer.clubs.create({ domain, name: 'Long' })).domain, domain)
  })

  for (const name of ['', '   ', '\t\n', 'x'.repeat(201)]) {
    it(`refuses the name ${JSON.stringify(name.length > 20 ? name.slice(0, 5) + '…' : name)} with validation-failed`, async () => {
      await assert.rejects(h.issuer.clubs.create({ domain: 'chess', name }), isValidationFailed([{ message: 'invalid-club-name', path: 'name' }]))
      assert.equal(await h.storage.clubs.count(), 0)
    })
  }

  it('reports a bad domain and a bad name together', async () => {
    await assert.rejects(
      h.issuer.clubs.create({ domain: 'Bad Domain', name: ' ' }),
      isValidationFailed([
        { message: 'invalid-club-domain', path: 'domain' },
        { message: 'invalid-club-name', path: 'name' },
      ]),
    )
  })

  it('refuses values that are not strings (input from JSON) with validation-failed', async () => {
    await assert.rejects(
      h.issuer.clubs.create({ domain: 42, name: null } as unknown as { domain: string; name: string }),
      isValidationFailed([
        { message: 'invalid-club-domain', path: 'domain' },
        { message: 'invalid-club-name', path: 'name' },
      ]),
    )
  })

  it('a second club with the same domain is a conflict and leaves the first unchanged', async () => {
    const first = await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    await assert.rejects(h.issuer.clubs.create({ domain: 'chess', name: 'Other' }), (error) => {
      assert.ok(error instanceof ProblemError)
      assert.equal(error.code, 'conflict')
      return true
    })
    assert.deepStrictEqual(await h.issuer.clubs.find('chess'), first)
  })
  it('counts the clubs, so that the server creates the demo club only on an empty data dir', async () => {
    assert.equal(await h.issuer.clubs.count(), 0)
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    await h.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    assert.equal(await h.issuer.clubs.count(), 2)
  })
})
