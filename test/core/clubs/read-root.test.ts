import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { ProblemError } from '../../../core/errors.ts'
import { tokenFor } from '../../support/tokens.ts'
import { clubWithClient, createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

describe('reading the club root', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness()
  })
  afterEach(() => h.close())

  it("returns domain, name, canIssue and the scope names of the caller's token", async () => {
    const client = await clubWithClient(h.issuer, 'chess', ['events:read', 'clubs:read', 'issuance:read'])
    const token = await tokenFor(h.issuer, client, 'svc:openapi:clubs:read svc:openapi:events:read')
    const principal = await h.issuer.tokens.verify(token.access_token)
    assert.deepStrictEqual(await h.issuer.clubs.root(principal), {
      domain: 'chess',
      name: 'chess club',
      canIssue: true,
      grantedOperations: ['clubs:read', 'events:read'],
    })
  })

  it("follows the club's current canIssue flag", async () => {
    const client = await clubWithClient(h.issuer)
    const principal = await h.issuer.tokens.verify((await tokenFor(h.issuer, client)).access_token)
    await h.issuer.clubs.setCanIssue('chess', false)
    assert.equal((await h.issuer.clubs.root(principal)).canIssue, false)
  })

  it('a principal of a club that does not exist is club-not-found', async () => {
    await assert.rejects(
      h.issuer.clubs.root({ clientId: 'cc_x', club: 'ghost', scopes: ['clubs:read'], tokenId: 'j' }),
      (error) => error instanceof ProblemError && error.code === 'club-not-found',
    )
  })
})
