import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { ProblemError } from '../../../core/errors.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

describe('setting the platform flags of a club', () => {
  let h: CoreHarness
  beforeEach(async () => {
    h = createCoreHarness()
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  })
  afterEach(() => h.close())

  it('setVerified sets and clears issuerVerified and returns the club', async () => {
    const verified = await h.issuer.clubs.setVerified('chess', true)
    assert.equal(verified.issuerVerified, true)
    assert.equal(verified.canIssue, true)
    assert.deepStrictEqual(await h.issuer.clubs.find('chess'), verified)
    assert.equal((await h.issuer.clubs.setVerified('chess', false)).issuerVerified, false)
  })

  it('setCanIssue switches issuing off and on without touching the attestation', async () => {
    await h.issuer.clubs.setVerified('chess', true)
    const off = await h.issuer.clubs.setCanIssue('chess', false)
    assert.deepStrictEqual([off.canIssue, off.issuerVerified], [false, true])
    assert.equal((await h.issuer.clubs.find('chess'))?.canIssue, false)
  })

  it('an unknown club is club-not-found and creates nothing', async () => {
    await assert.rejects(h.issuer.clubs.setVerified('nope', true), (error) => {
      assert.ok(error instanceof ProblemError)
      assert.equal(error.code, 'club-not-found')
      return true
    })
    assert.equal(await h.issuer.clubs.find('nope'), null)
  })
})
