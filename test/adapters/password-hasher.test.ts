import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { scryptSync } from 'node:crypto'
import { createScryptPasswordHasher } from '../../adapters/node/password-hasher.ts'
import { PasswordHasherBusy } from '../../core/ports/password-hasher.ts'

const CHEAP = { ln: 10, r: 8, p: 1 }

describe('the scrypt password hasher', () => {
  it('a hash is a PHC string that node:crypto scrypt reproduces from its salt and parameters', async () => {
    const hasher = createScryptPasswordHasher({ parameters: CHEAP })
    const encoded = await hasher.hash('correct horse battery staple')
    const [, fn, params, salt, hash] = encoded.split('$')
    assert.equal(fn, 'scrypt')
    assert.equal(params, 'ln=10,r=8,p=1')
    const expected = scryptSync('correct horse battery staple', Buffer.from(salt!, 'base64url'), 32, { N: 1024, r: 8, p: 1 })
    assert.equal(hash, expected.toString('base64url'))
    assert.equal(await hasher.verify('correct horse battery staple', encoded), true)
    assert.equal(await hasher.verify('correct horse battery stapler', encoded), false)
  })

  it('runs at most `concurrency` hashes, lets `maxWaiting` wait, and refuses the next with PasswordHasherBusy', async () => {
    const hasher = createScryptPasswordHasher({ parameters: CHEAP, concurrency: 1, maxWaiting: 2 })
    const encoded = await hasher.hash('a password of twelve')
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => hasher.verify('a password of twelve', encoded)))
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected'],
    )
    for (const outcome of outcomes.slice(3)) assert.ok(outcome.status === 'rejected' && outcome.reason instanceof PasswordHasherBusy)
    // The turns were all given back: as many again pass once the first ones are done.
    const again = await Promise.all(Array.from({ length: 3 }, () => hasher.verify('a password of twelve', encoded)))
    assert.deepEqual(again, [true, true, true])
  })

  it('an unreadable stored hash is false without taking a turn', async () => {
    const hasher = createScryptPasswordHasher({ parameters: CHEAP, concurrency: 1, maxWaiting: 0 })
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => hasher.verify('x', 'not a hash')))
    assert.deepEqual(outcomes, [false, false, false, false])
  })

  it('refuses bounds that make no sense', () => {
    assert.throws(() => createScryptPasswordHasher({ concurrency: 0 }), TypeError)
    assert.throws(() => createScryptPasswordHasher({ maxWaiting: -1 }), TypeError)
  })
})
