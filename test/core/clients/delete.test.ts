import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { OAuthError, ProblemError } from '../../../core/errors.ts'
import { tokenFor } from '../../support/tokens.ts'
import { clubWithClient, createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

describe('deleting a client', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness()
  })
  afterEach(() => h.close())

  it('answers { deleted: true }, and its tokens and secret stop working at once', async () => {
    const client = await clubWithClient(h.issuer)
    const other = await clubWithClient(h.issuer)
    const token = await tokenFor(h.issuer, client)
    const otherToken = await tokenFor(h.issuer, other)
    assert.deepStrictEqual(await h.issuer.clients.delete(client.client_id), { deleted: true })
    await assert.rejects(h.issuer.tokens.verify(token.access_token), (error) => error instanceof ProblemError && error.code === 'invalid-token')
    await assert.rejects(tokenFor(h.issuer, client), (error) => error instanceof OAuthError && error.error === 'invalid_client')
    assert.equal((await h.issuer.tokens.verify(otherToken.access_token)).clientId, other.client_id)
  })

  it('an unknown or already deleted client is client-not-found', async () => {
    const client = await clubWithClient(h.issuer)
    await h.issuer.clients.delete(client.client_id)
    for (const id of [client.client_id, 'cc_nope']) {
      await assert.rejects(h.issuer.clients.delete(id), (error) => error instanceof ProblemError && error.code === 'client-not-found')
    }
  })
})
