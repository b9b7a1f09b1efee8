/**
 * First start on an empty data dir (docs/decisions/0002-admin-cli.md): club `demo` and an all-scope client
 * printed once.
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { SCOPE_NAMES } from '../../core/scopes.ts'
import { accessToken } from '../support/tokens.ts'
import { clubRoot, demoClientFrom, freshDataDir, removeDataDir, startServer } from '../support/server.ts'

describe('starting the server', () => {
  const dataDir = freshDataDir()
  after(() => removeDataDir(dataDir))

  it('prints the demo client once; it reads the demo club; a second start prints no client', async () => {
    const first = await startServer({ dataDir })
    let demo: { client_id: string; client_secret: string } | null
    try {
      assert.match(first.stderr, /clubcred listening on http:\/\/127\.0\.0\.1:\d+\n/)
      demo = demoClientFrom(first.stderr)
      assert.ok(demo, `no demo client in:\n${first.stderr}`)
      assert.match(demo.client_id, /^cc_[0-9a-f]{24}$/)
      assert.match(demo.client_secret, /^ccs_[A-Za-z0-9_-]{43}$/)

      const token = await accessToken(first, demo)
      const root = await clubRoot(first, 'demo', token)
      assert.equal(root.status, 200, root.text)
      assert.deepStrictEqual(root.json, {
        data: { domain: 'demo', name: 'Demo Club', canIssue: true, grantedOperations: [...SCOPE_NAMES] },
      })
    } finally {
      assert.equal(await first.stop(), 0, `SIGTERM ends the server with exit code 0; stderr:\n${first.stderr}`)
    }

    const second = await startServer({ dataDir })
    try {
      assert.equal(demoClientFrom(second.stderr), null, second.stderr)
      assert.doesNotMatch(second.stderr, /client_secret|ccs_/)
      // The first start's client is still there and still works.
      const token = await accessToken(second, demo)
      assert.equal((await clubRoot(second, 'demo', token)).status, 200)
    } finally {
      assert.equal(await second.stop(), 0, second.stderr)
    }
  })

  it('a PORT that is not a port number stops the start with an error', async () => {
    await assert.rejects(startServer({ env: { PORT: 'eighty' } }), /exited with 1 before listening[\s\S]*PORT/)
  })
})
