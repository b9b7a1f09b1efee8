import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { OAuthError, ProblemError } from '../../../core/errors.ts'
import { tokenFor } from '../../support/tokens.ts'
import { clubWithClient, createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

const isInvalidToken = (error: unknown) => error instanceof ProblemError && error.code === 'invalid-token'
const isInvalidClient = (error: unknown) => error instanceof OAuthError && error.error === 'invalid_client'

describe('rotating a client secret', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness()
  })
  afterEach(() => h.close())

  it('returns a new secret for the same id; the old secret stops working and the new one works', async () => {
    const client = await clubWithClient(h.issuer)
    const rotated = await h.issuer.clients.rotate(client.client_id)
    assert.deepStrictEqual(Object.keys(rotated).sort(), ['client_id', 'client_secret'])
    assert.equal(rotated.client_id, client.client_id)
    assert.notEqual(rotated.client_secret, client.client_secret)
    await assert.rejects(tokenFor(h.issuer, client), isInvalidClient)
    const token = await tokenFor(h.issuer, rotated)
    assert.equal((await h.issuer.tokens.verify(token.access_token)).clientId, client.client_id)
  })

  it('refuses the tokens obtained before the rotation, a second later', async () => {
    const client = await clubWithClient(h.issuer)
    const before = await tokenFor(h.issuer, client)
    h.clock.advance(1000)
    await h.issuer.clients.rotate(client.client_id)
    await assert.rejects(h.issuer.tokens.verify(before.access_token), isInvalidToken)
  })

  it('refuses the tokens obtained before the rotation, also within the same second', async () => {
    const client = await clubWithClient(h.issuer)
    h.clock.advance(100)
    const before = await tokenFor(h.issuer, client)
    h.clock.advance(300)
    const rotated = await h.issuer.clients.rotate(client.client_id)
    await assert.rejects(h.issuer.tokens.verify(before.access_token), isInvalidToken)
    // ...while a token of the new secret from that same second works.
    h.clock.advance(100)
    const after = await tokenFor(h.issuer, rotated)
    assert.equal((await h.issuer.tokens.verify(after.access_token)).clientId, client.client_id)
  })

  it("a second rotation at the same instant also revokes the first rotation's tokens", async () => {
    const client = await clubWithClient(h.issuer)
    const first = await h.issuer.clients.rotate(client.client_id)
    const token = await tokenFor(h.issuer, first)
    await h.issuer.clients.rotate(client.client_id)
    await assert.rejects(h.issuer.tokens.verify(token.access_token), isInvalidToken)
  })

  it('an unknown client is client-not-found', async () => {
    await assert.rejects(h.issuer.clients.rotate('cc_nope'), (error) => error instanceof ProblemError && error.code === 'client-not-found')
    assert.deepStrictEqual(h.storage.writes, ['clients.updateSecret'])
    assert.equal(await h.storage.clients.findById('cc_nope'), null)
  })
})
