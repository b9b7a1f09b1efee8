/**
 * The admin CLI (docs/decisions/0002-admin-cli.md): every command prints exactly one JSON object on stdout; a
 * failure prints `{ error: { code, message } }` and exits non-zero. The commands run in this process
 * (test/support/cli.ts); the last test starts real processes.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { SCOPE_NAMES } from '../../core/scopes.ts'
import { freshDataDir, removeDataDir, runCli, type CliResult } from '../support/server.ts'
import { cliProcess, dataDirEnv } from '../support/cli.ts'
import type { Json } from '../support/json.ts'

/** Exactly one JSON object on one line of stdout. */
function assertOneObject(result: CliResult): void {
  assert.match(result.stdout, /^[^\n]+\n$/, `stdout must be one line:\n${result.stdout}`)
  assert.ok(result.json && typeof result.json === 'object' && !Array.isArray(result.json), result.stdout)
}

function assertSuccess(result: CliResult): Json {
  assertOneObject(result)
  assert.equal(result.code, 0, result.stdout + result.stderr)
  return result.json
}

function assertFailure(result: CliResult, code: string): void {
  assertOneObject(result)
  assert.notEqual(result.code, 0, 'a failure exits non-zero')
  assert.deepStrictEqual(Object.keys(result.json), ['error'])
  assert.equal(result.json.error.code, code, result.stdout)
  assert.equal(typeof result.json.error.message, 'string')
  assert.ok(result.json.error.message.length > 0)
  assert.doesNotMatch(result.stdout, /\bat .+:\d+:\d+/, 'no stack trace on stdout')
}

describe('the admin CLI', { concurrency: 3 }, () => {
  const dataDir = freshDataDir()
  const run = (...args: string[]) => runCli(dataDir, ...args)
  before(async () => {
    assertSuccess(await run('club', 'create', '--domain', 'chess', '--name', 'Chess Club'))
  })
  after(() => removeDataDir(dataDir))

  it('club create prints the club', async () => {
    const club = assertSuccess(await run('club', 'create', '--domain', 'go', '--name', '  Go Club '))
    assert.deepStrictEqual(Object.keys(club).sort(), ['canIssue', 'createdAt', 'domain', 'issuerVerified', 'name'])
    assert.equal(club.domain, 'go')
    assert.equal(club.name, 'Go Club')
    assert.equal(club.canIssue, true)
    assert.equal(club.issuerVerified, false)
    assert.ok(Math.abs(club.createdAt - Date.now()) < 60_000)
  })

  it('club create --no-issue prints a club that may not issue', async () => {
    assert.equal(assertSuccess(await run('club', 'create', '--domain', 'shut', '--name', 'Shut', '--no-issue')).canIssue, false)
  })

  it('club verify sets issuerVerified and --off clears it', async () => {
    const on = assertSuccess(await run('club', 'verify', '--club', 'chess'))
    assert.equal(on.domain, 'chess')
    assert.equal(on.issuerVerified, true)
    assert.equal(assertSuccess(await run('club', 'verify', '--club', 'chess', '--off')).issuerVerified, false)
  })

  it('client create, rotate and delete print { client_id, client_secret, scopes }, { client_id, client_secret }, { deleted: true }', async () => {
    const client = assertSuccess(await run('client', 'create', '--club', 'chess'))
    assert.deepStrictEqual(Object.keys(client).sort(), ['client_id', 'client_secret', 'scopes'])
    assert.match(client.client_id, /^cc_[0-9a-f]{24}$/)
    assert.match(client.client_secret, /^ccs_[A-Za-z0-9_-]{43}$/)
    assert.deepStrictEqual(client.scopes, [...SCOPE_NAMES], 'every scope by default')

    const rotated = assertSuccess(await run('client', 'rotate', '--client', client.client_id))
    assert.deepStrictEqual(Object.keys(rotated).sort(), ['client_id', 'client_secret'])
    assert.equal(rotated.client_id, client.client_id)
    assert.notEqual(rotated.client_secret, client.client_secret)

    assert.deepStrictEqual(assertSuccess(await run('client', 'delete', '--client', client.client_id)), { deleted: true })
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    try {
      assert.equal(db.prepare('SELECT count(*) FROM clients WHERE id = ?').pluck().get(client.client_id), 0)
    } finally {
      db.close()
    }
  })

  it('client create --scopes keeps those scopes, separated by spaces or commas', async () => {
    const client = assertSuccess(await run('client', 'create', '--club', 'chess', '--scopes', 'issuance:write, events:read issuance:read'))
    assert.deepStrictEqual(client.scopes, ['issuance:read', 'issuance:write', 'events:read'])
  })

  it('key rotate prints the new key ids; old keys stay, one active of each', async () => {
    const first = assertSuccess(await run('key', 'rotate', '--club', 'chess'))
    const second = assertSuccess(await run('key', 'rotate', '--club', 'chess'))
    assert.deepStrictEqual(Object.keys(first).sort(), ['club', 'createdAt', 'dataIntegrityKid', 'kid'])
    assert.notEqual(first.dataIntegrityKid, second.dataIntegrityKid)
    assert.equal(first.club, 'chess')
    assert.ok(!Number.isNaN(Date.parse(first.createdAt)))
    assert.notEqual(first.kid, second.kid)
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    try {
      const keys = db.prepare("SELECT kid, active FROM keys WHERE owner = 'club:chess' ORDER BY created_at, kid").all()
      assert.deepStrictEqual(keys, [
        { kid: first.kid, active: 0 },
        { kid: second.kid, active: 1 },
      ])
      const dataIntegrityKeys = db.prepare("SELECT kid, active FROM keys WHERE owner = 'club-ed25519:chess' ORDER BY created_at, kid").all()
      assert.deepStrictEqual(dataIntegrityKeys.slice(-2), [
        { kid: first.dataIntegrityKid, active: 0 },
        { kid: second.dataIntegrityKid, active: 1 },
      ])
    } finally {
      db.close()
    }
  })

  const failures: [string, string[], string][] = [
    ['an unknown club for client create', ['client', 'create', '--club', 'nope'], 'club-not-found'],
    ['an unknown client for client rotate', ['client', 'rotate', '--client', 'cc_nope'], 'client-not-found'],
    ['a bad domain', ['club', 'create', '--domain', 'Bad_Domain', '--name', 'Bad'], 'validation-failed'],
    ['an unknown scope', ['client', 'create', '--club', 'chess', '--scopes', 'clubs:write'], 'validation-failed'],
    ['a club that exists already', ['club', 'create', '--domain', 'chess', '--name', 'Again'], 'conflict'],
    ['an unknown command', ['frobnicate'], 'usage'],
    ['a missing required option', ['club', 'create', '--domain', 'x'], 'usage'],
    ['an unknown option', ['club', 'create', '--domain', 'x', '--name', 'X', '--colour', 'red'], 'usage'],
  ]
  for (const [what, args, code] of failures) {
    it(`${what} prints { error: { code: ${code}, message } } and exits non-zero`, async () => {
      const result = await run(...args)
      assertFailure(result, code)
      if (what === 'a bad domain') {
        assert.deepStrictEqual(result.json.error.errors, [{ message: 'invalid-club-domain', path: 'domain' }])
      }
    })
  }

  it('an unknown command quotes no word that could be a secret typed without its option', async () => {
    const apiKey = 'cck_0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg'
    for (const args of [
      ['apikey', 'revoke', apiKey],
      ['client', 'rotate', 'ccs_the-client-secret-itself'],
      ['apikey', 'revoke', apiKey, '--help'],
    ]) {
      const result = await run(...args)
      assertFailure(result, 'usage')
      assert.equal(result.code, 2)
      assert.match(result.json.error.message, new RegExp(`^unknown command: ${args[0]} ${args[1]} …\\n`))
      assert.ok(!`${result.stdout}${result.stderr}`.includes(args[2]!.slice(4, 24)), result.stdout)
    }
  })

  it('a stray argument after the options is a usage error that does not quote it', async () => {
    const result = await run('client', 'rotate', '--client', 'cc_nope', 'ccs_the-client-secret-itself')
    assertFailure(result, 'usage')
    assert.equal(result.code, 2)
    assert.ok(!`${result.stdout}${result.stderr}`.includes('the-client-secret'), result.stdout)
  })

  it('an internal error is one masked JSON line on stderr, no raw error object: an address in its message never appears', async () => {
    const result = await run(
      'design',
      'create',
      '--club',
      'chess',
      '--kind',
      'badge',
      '--name',
      'B',
      '--file',
      join(dataDir, 'nowhere', 'kim.min@example.org.svg'),
    )
    assertFailure(result, 'internal-error')
    assert.match(result.json.error.message, /ENOENT[^]*\[email\]/)
    assert.ok(!`${result.stdout}${result.stderr}`.includes('example.org'), result.stderr)
    const lines = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json)
    assert.deepEqual(
      lines.map((line) => [line.level, line.msg, line.err?.code]),
      [['error', 'command failed', 'ENOENT']],
    )
  })

  it('CLI processes started together on a fresh data dir all succeed and agree on one master key; a failing one exits 2', async () => {
    const fresh = freshDataDir()
    try {
      const run = (...args: string[]) => cliProcess(dataDirEnv(fresh), args)
      const [usage, ...results] = await Promise.all([
        run('club', 'create', '--domain', 'x'),
        ...['a', 'b', 'c'].map((domain) => run('club', 'create', '--domain', domain, '--name', domain)),
      ])
      assertFailure(usage!, 'usage')
      assert.equal(usage!.code, 2, 'the exit status of the process')
      for (const result of results) assertSuccess(result)
      assert.match(readFileSync(join(fresh, 'master.key'), 'utf8'), /^[A-Za-z0-9_-]{43}\n$/)
      const db = new Database(join(fresh, 'clubcred.db'), { readonly: true })
      try {
        assert.equal(db.prepare('SELECT count(*) FROM clubs').pluck().get(), 3)
      } finally {
        db.close()
      }
    } finally {
      removeDataDir(fresh)
    }
  })
})

/** Open handles by kind (a child process of an earlier test may still be closing: fewer is fine). */
function resourceCounts(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1
  return counts
}

describe('the admin CLI in a process it shares', () => {
  it('a command closes its storage, leaves no handle open and sets no exit code', async () => {
    const dataDir = freshDataDir()
    try {
      const before = resourceCounts()
      assertSuccess(await runCli(dataDir, 'club', 'create', '--domain', 'chess', '--name', 'Chess Club'))
      assertSuccess(await runCli(dataDir, 'key', 'rotate', '--club', 'chess'))
      assertFailure(await runCli(dataDir, 'client', 'rotate', '--client', 'cc_nope'), 'client-not-found')
      for (const [kind, count] of Object.entries(resourceCounts())) assert.ok(count <= (before[kind] ?? 0), `a ${kind} was left open`)
      // The last connection to close checkpoints the write-ahead log and removes it.
      assert.deepEqual(readdirSync(dataDir).sort(), ['clubcred.db', 'master.key'], 'the storage is closed')
      assert.equal(process.exitCode, undefined)
    } finally {
      removeDataDir(dataDir)
    }
  })
})
