/**
 * The canonical JSON of the idempotency fingerprint takes whatever a library caller passes (`unknown`):
 * it must answer a problem, never overflow the stack.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { canonicalJson } from '../../../core/crypto/canonical-json.ts'
import { ProblemError } from '../../../core/errors.ts'
import { MAX_JSON_DEPTH } from '../../../core/json-depth.ts'
import { clubWithClient, createCoreHarness } from '../../support/core-issuer.ts'

const nested = (depth: number, open: (inner: unknown) => unknown): unknown => {
  let value: unknown = 1
  for (let level = 0; level < depth; level++) value = open(value)
  return value
}

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined members, like JSON.stringify otherwise', () => {
    assert.equal(canonicalJson({ b: [1, { d: 1, c: undefined, a: 'x' }], a: null }), '{"a":null,"b":[1,{"a":"x","d":1}]}')
  })

  it('equals JSON.stringify of the same value with sorted keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.deepEqual(JSON.parse(canonicalJson(value)), JSON.parse(JSON.stringify(value)) ?? null)
      }),
      { seed: 13, numRuns: 200 },
    )
  })

  it(`accepts nesting up to ${MAX_JSON_DEPTH} levels`, () => {
    assert.equal(canonicalJson(nested(MAX_JSON_DEPTH, (inner) => [inner])), `${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`)
  })

  for (const [kind, open] of [
    ['arrays', (inner: unknown) => [inner]],
    ['objects', (inner: unknown) => ({ a: inner })],
  ] as const) {
    it(`refuses 100,000 nested ${kind} with a 422 problem, not a stack overflow`, () => {
      assert.throws(
        () => canonicalJson(nested(100_000, open)),
        (error: unknown) => error instanceof ProblemError && error.code === 'validation-failed' && error.errors?.[0]?.message === 'nesting-too-deep',
      )
    })
  }

  it('refuses a cyclic value with the same problem', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    assert.throws(
      () => canonicalJson(cyclic),
      (error: unknown) => error instanceof ProblemError && error.code === 'validation-failed',
    )
  })

  it('the library operations refuse a deep body under an Idempotency-Key with the problem, storing nothing', async () => {
    const { issuer, close } = createCoreHarness()
    try {
      await clubWithClient(issuer, 'chess')
      const deep = { achievementFormId: 1, recipients: nested(100_000, (inner) => [inner]) }
      const refused = (error: unknown) => error instanceof ProblemError && error.errors?.[0]?.message === 'nesting-too-deep'
      await assert.rejects(issuer.issuances.issue('chess', deep as never, { idempotencyKey: 'k' }), refused)
      await assert.rejects(issuer.v1.issue('chess', deep as never, { idempotencyKey: 'k' }), refused)
      await assert.rejects(issuer.issuances.revoke('chess', 1, deep as never, { idempotencyKey: 'k' }), refused)
      assert.deepEqual((await issuer.events.list('chess', {})).data, [])
    } finally {
      await close()
    }
  })
})
