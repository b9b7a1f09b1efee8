/**
 * `admin create|reset|list|remove` (docs/admin-console.md § Who gets in): one JSON object each, the CLI's
 * error shape and exit code on failure, a setup link that a reset replaces.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createCoreIssuer } from '../../core/create-core-issuer.ts'
import { defaultUrls } from '../../core/config.ts'
import { freshDataDir, removeDataDir, runCli } from '../support/server.ts'
import { openSqliteFile } from '../support/temp-sqlite.ts'

describe('admin CLI commands', () => {
  const dataDir = freshDataDir()
  const run = (...args: string[]) => runCli(dataDir, ...args)
  /** Whether a setup token still works, read from the data dir's database after the commands ran. */
  const setupWorks = async (setupUrl: string) => {
    const issuer = createCoreIssuer({ storage: openSqliteFile(join(dataDir, 'clubcred.db')), masterKey: new Uint8Array(32), urls: defaultUrls(8787) })
    try {
      return (await issuer.admins.setupFor(new URL(setupUrl).searchParams.get('token')!)) !== null
    } finally {
      await issuer.close()
    }
  }
  before(async () => {
    assert.equal((await run('club', 'create', '--domain', 'chess', '--name', 'Chess Club')).code, 0)
  })
  after(() => removeDataDir(dataDir))

  it('create prints one object with a setup link valid 24 hours; list shows the admin pending, with no secret', async () => {
    const created = await run('admin', 'create', '--club', 'chess', '--email', 'Staff@Chess.example', '--name', '김 코치')
    assert.equal(created.code, 0, created.stdout + created.stderr)
    assert.match(created.stdout, /^[^\n]+\n$/)
    assert.deepStrictEqual(Object.keys(created.json).sort(), ['club', 'email', 'expiresAt', 'name', 'setupUrl'])
    assert.equal(created.json.email, 'staff@chess.example')
    assert.equal(created.json.name, '김 코치')
    assert.match(created.json.setupUrl, /^http:\/\/localhost:\d+\/admin\/setup\?token=ccsetup_[A-Za-z0-9_-]{43}$/)
    const lifetime = Date.parse(created.json.expiresAt) - Date.now()
    assert.ok(lifetime > 23.9 * 3600_000 && lifetime <= 24 * 3600_000, String(lifetime))
    const listed = await run('admin', 'list', '--club', 'chess')
    assert.equal(listed.code, 0)
    assert.deepStrictEqual(
      listed.json.admins.map((admin: Record<string, unknown>) => [admin.email, admin.name, admin.state]),
      [['staff@chess.example', '김 코치', 'pending']],
    )
    assert.doesNotMatch(listed.stdout, /ccsetup_|sha256\$|scrypt/)
    assert.ok(await setupWorks(created.json.setupUrl))
  })

  it('reset prints a new link and the old one stops working', async () => {
    const created = await run('admin', 'create', '--club', 'chess', '--email', 'reset@chess.example')
    const reset = await run('admin', 'reset', '--club', 'chess', '--email', 'reset@chess.example')
    assert.equal(reset.code, 0, reset.stdout)
    assert.notEqual(reset.json.setupUrl, created.json.setupUrl)
    assert.equal(await setupWorks(created.json.setupUrl), false)
    assert.equal(await setupWorks(reset.json.setupUrl), true)
  })

  it('remove deletes the admin; a second remove is admin-not-found', async () => {
    await run('admin', 'create', '--club', 'chess', '--email', 'gone@chess.example')
    const removed = await run('admin', 'remove', '--club', 'chess', '--email', 'gone@chess.example')
    assert.deepStrictEqual(removed.json, { removed: true, email: 'gone@chess.example', club: 'chess' })
    const again = await run('admin', 'remove', '--club', 'chess', '--email', 'gone@chess.example')
    assert.equal(again.code, 1)
    assert.equal(again.json.error.code, 'admin-not-found')
    const listed = await run('admin', 'list', '--club', 'chess')
    assert.ok(!listed.json.admins.some((admin: Record<string, unknown>) => admin.email === 'gone@chess.example'))
  })

  it('refuses an unknown club, a taken e-mail, a bad e-mail and another club’s admin, in the error shape', async () => {
    await run('club', 'create', '--domain', 'go', '--name', 'Go Club')
    await run('admin', 'create', '--club', 'chess', '--email', 'taken@chess.example')
    const cases: [string[], string][] = [
      [['admin', 'create', '--club', 'nope', '--email', 'a@nope.example'], 'club-not-found'],
      [['admin', 'create', '--club', 'go', '--email', 'taken@chess.example'], 'conflict'],
      [['admin', 'create', '--club', 'chess', '--email', 'not an e-mail'], 'validation-failed'],
      [['admin', 'reset', '--club', 'go', '--email', 'taken@chess.example'], 'admin-not-found'],
      [['admin', 'remove', '--club', 'go', '--email', 'taken@chess.example'], 'admin-not-found'],
      [['admin', 'list', '--club', 'nope'], 'club-not-found'],
    ]
    for (const [args, code] of cases) {
      const result = await run(...args)
      assert.equal(result.code, 1, args.join(' '))
      assert.deepStrictEqual(Object.keys(result.json), ['error'])
      assert.equal(result.json.error.code, code, args.join(' '))
    }
  })
})
