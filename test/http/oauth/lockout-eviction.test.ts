/**
 * The failed-authentication lock of the token endpoint survives a flood of made-up client ids
 * (evicting the oldest tracked id once released a locked client at once).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { tokenRequest } from '../../support/tokens.ts'
import { adminClubAndClient, openAdmin, removeDataDir, startServer, type ServerProcess } from '../../support/server.ts'
import { assertOAuthError } from '../../support/assertions.ts'

describe('the token endpoint lock under a flood of made-up client ids', () => {
  let server: ServerProcess
  before(async () => {
    server = await startServer()
  })
  after(async () => {
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  it('a locked client stays 429 after 10,001 failures with made-up ids', async () => {
    const admin = openAdmin(server.dataDir)
    const victim = await adminClubAndClient(admin, 'lock-victim')
    await admin.close()
    const wrong = { client_id: victim.client_id, client_secret: victim.client_secret + 'x' }
    for (let i = 0; i < 10; i++) assertOAuthError(await tokenRequest(server, wrong), 401, 'invalid_client')
    assert.equal((await tokenRequest(server, victim)).status, 429)

    const flood = Array.from({ length: 10_001 }, (_, i) => ({ client_id: `cc_madeup${i}`, client_secret: 'ccs_wrong' }))
    for (let start = 0; start < flood.length; start += 50) {
      const answers = await Promise.all(flood.slice(start, start + 50).map((client) => tokenRequest(server, client)))
      for (const answer of answers) assert.equal(answer.status, 401, answer.text)
    }

    const after = await tokenRequest(server, victim)
    assert.equal(after.status, 429, after.text)
    assert.equal(after.json.error, 'rate_limited')
  })
})
