import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { SCOPE_NAMES, isScopeName, parseScopeString, toScopeString } from '../../core/scopes.ts'

describe('scope strings', () => {
  it('are the ten scopes of docs/api.md §2.2, in its order', () => {
    assert.deepStrictEqual(
      [...SCOPE_NAMES],
      [
        'clubs:read',
        'billing:read',
        'achievements:read',
        'achievements:manage',
        'designs:read',
        'designs:manage',
        'issuance:read',
        'issuance:write',
        'issuance:revoke',
        'events:read',
      ],
    )
  })

  it('svc:openapi:<scope> parses back to its scope name', () => {
    for (const name of SCOPE_NAMES) {
      assert.equal(toScopeString(name), `svc:openapi:${name}`)
      assert.equal(parseScopeString(toScopeString(name)), name)
    }
  })

  it('anything else parses to null', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const parsed = parseScopeString(value)
        if (parsed !== null) assert.equal(value, `svc:openapi:${parsed}`)
      }),
    )
    for (const value of ['clubs:read', 'SVC:openapi:clubs:read', 'svc:openapi:clubs:read ', 'svc:openapi:']) {
      assert.equal(parseScopeString(value), null)
    }
    assert.equal(isScopeName('clubs:write'), false)
  })
})
