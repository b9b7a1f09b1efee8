/** The admin CLI's `webhook ...` commands: names and flags as docs/webhooks.md gives them, one JSON object each. */
import assert from 'node:assert/strict'
import { after, it } from 'node:test'
import { cli, freshDataDir, removeDataDir, runCli } from '../support/server.ts'

const dataDir = freshDataDir()
after(() => removeDataDir(dataDir))

it('webhook create, list, update, rotate-secret, deliveries, replay, delete', { timeout: 120_000 }, async () => {
  await cli(dataDir, 'club', 'create', '--domain', 'chess', '--name', 'Chess Club')
  const created = await cli(
    dataDir,
    'webhook',
    'create',
    '--club',
    'chess',
    '--url',
    'https://hooks.example.com/in',
    '--events',
    'issuance.issued issuance.revoked',
  )
  assert.deepEqual(Object.keys(created).sort(), ['events', 'id', 'secret', 'url'])
  assert.match(created.secret, /^whsec_/)
  assert.deepEqual(created.events, ['issuance.issued', 'issuance.revoked'])
  const refused = await runCli(dataDir, 'webhook', 'create', '--club', 'chess', '--url', 'https://10.0.0.7/in')
  assert.equal(refused.code, 1)
  assert.equal(refused.json.error.code, 'validation-failed')
  const { webhooks } = await cli(dataDir, 'webhook', 'list', '--club', 'chess')
  assert.deepEqual(
    webhooks.map((w: { id: string; enabled: boolean }) => [w.id, w.enabled]),
    [[created.id, true]],
  )
  assert.ok(!JSON.stringify(webhooks).includes(created.secret), 'list never shows the secret')
  const updated = await cli(dataDir, 'webhook', 'update', '--webhook', created.id, '--url', 'https://hooks.example.com/v2', '--disable')
  assert.equal(updated.url, 'https://hooks.example.com/v2')
  assert.equal(updated.enabled, false)
  const rotated = await cli(dataDir, 'webhook', 'rotate-secret', '--webhook', created.id)
  assert.notEqual(rotated.secret, created.secret)
  assert.ok(rotated.previousSecretUntil)
  assert.deepEqual(await cli(dataDir, 'webhook', 'deliveries', '--webhook', created.id, '--limit', '5'), { deliveries: [] })
  assert.deepEqual(await cli(dataDir, 'webhook', 'replay', '--webhook', created.id, '--after', '0'), { id: created.id, replayed: 0 })
  assert.deepEqual(await cli(dataDir, 'webhook', 'delete', '--webhook', created.id), { id: created.id, deleted: true })
  const gone = await runCli(dataDir, 'webhook', 'delete', '--webhook', created.id)
  assert.equal(gone.json.error.code, 'webhook-not-found')
})
