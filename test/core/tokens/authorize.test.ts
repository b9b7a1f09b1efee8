import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ProblemError } from '../../../core/errors.ts'
import { authorize } from '../../../core/tokens/authorize.ts'
import type { Principal } from '../../../core/tokens/principal.ts'

const principal: Principal = { clientId: 'cc_1', club: 'chess', scopes: ['clubs:read', 'events:read'], tokenId: 'j' }

describe('authorizing a club operation', () => {
  it("passes for the token's own club and a scope it holds", () => {
    assert.doesNotThrow(() => authorize(principal, 'chess', 'clubs:read'))
    assert.doesNotThrow(() => authorize(principal, 'chess', 'events:read'))
  })

  it('another club is club-forbidden, checked before the scope', () => {
    for (const club of ['go', 'Chess', 'chess ', '']) {
      assert.throws(
        () => authorize(principal, club, 'issuance:write'),
        (error) => error instanceof ProblemError && error.code === 'club-forbidden',
      )
    }
  })

  it('a missing scope is insufficient-scope naming the svc:openapi scope string', () => {
    assert.throws(
      () => authorize(principal, 'chess', 'issuance:write'),
      (error) => {
        assert.ok(error instanceof ProblemError)
        assert.equal(error.code, 'insufficient-scope')
        assert.deepStrictEqual(error.extra, { scope: 'svc:openapi:issuance:write' })
        return true
      },
    )
  })
})
