/**
 * The configuration check at start, which names every wrong variable at once: one table of variables
 * (server/environment.ts) is read whole, every wrong variable is named in one error, a secret's value is
 * never quoted, an unknown CLUBCRED_* variable is a warning, and docs/install.md and the README hold the
 * table as the code renders it.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { ConfigurationError, readServerConfig } from '../../server/config.ts'
import { unknownVariableWarnings, VARIABLES, variablesMarkdown } from '../../server/environment.ts'
import { spawnNode } from '../support/node-process.ts'
import { freshDataDir, removeDataDir, ROOT } from '../support/server.ts'

const MASTER_KEY_TYPO = 'not-a-key-but-a-secret-all-the-same'
const DATABASE_PASSWORD = 'hunter2-database-password'

/** Five wrong variables, two of them secrets whose values must never be printed. */
const FIVE_WRONG = {
  PORT: 'http',
  CLUBCRED_ROLE: 'signer',
  CLUBCRED_MAX_CONNECTIONS: '0',
  CLUBCRED_MASTER_KEY: MASTER_KEY_TYPO,
  CLUBCRED_DATABASE_URL: `mysql://clubcred:${DATABASE_PASSWORD}@db.internal/clubcred`,
}

/** Runs a start command with only `env` of the server's variables; resolves when it exits. */
function runStart(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inherited: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') inherited[name] = value
  }
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

describe('the configuration check', () => {
  it('names every wrong variable in one error, each with its problem, and quotes no secret', () => {
    let error: unknown
    try {
      readServerConfig(FIVE_WRONG)
    } catch (thrown) {
      error = thrown
    }
    assert.ok(error instanceof ConfigurationError, 'a ConfigurationError')
    assert.ok(error instanceof TypeError, 'still a TypeError, as before')
    assert.deepEqual(error.problems, [
      'PORT must be a port number, got http',
      'CLUBCRED_MASTER_KEY must be 32 bytes, as 64 hex digits or 43 base64url characters',
      'CLUBCRED_DATABASE_URL must be a postgres:// or postgresql:// URL',
      'CLUBCRED_ROLE must be one of all, api, worker, got signer',
      'CLUBCRED_MAX_CONNECTIONS must be a positive integer, got 0',
    ])
    assert.equal(error.message, `5 configuration errors: ${error.problems.join('; ')}`)
  })

  it('checks the cross-variable rules beside the single ones', () => {
    assert.throws(
      () => readServerConfig({ CLUBCRED_DATABASE_URL: 'postgres://db/clubcred', CLUBCRED_HEADERS_TIMEOUT_MS: '70000', CLUBCRED_SHARE_HOST: 'https://x/' }),
      (error: ConfigurationError) => {
        assert.deepEqual(error.problems, [
          'CLUBCRED_SHARE_HOST must be a host name with an optional :port, got https://x/',
          'CLUBCRED_HEADERS_TIMEOUT_MS (70000) must not exceed CLUBCRED_REQUEST_TIMEOUT_MS (60000)',
          'CLUBCRED_DATABASE_URL is set but CLUBCRED_MASTER_KEY is not: every node needs the same master key, and it is never stored in the database',
        ])
        return true
      },
    )
  })

  it('refuses URLs that are not http(s) and an SMTP URL of another scheme, without quoting the SMTP URL', () => {
    assert.throws(
      () => readServerConfig({ CLUBCRED_BASE_URL: 'localhost:8787', CLUBCRED_PUBLIC_URL: 'ftp://x', CLUBCRED_SMTP_URL: 'http://user:pw@mail' }),
      (error: ConfigurationError) => {
        assert.deepEqual(error.problems, [
          'CLUBCRED_BASE_URL must be an absolute http:// or https:// URL, got localhost:8787',
          'CLUBCRED_PUBLIC_URL must be an absolute http:// or https:// URL, got ftp://x',
          'CLUBCRED_SMTP_URL must be an smtp:// or smtps:// URL',
        ])
        return true
      },
    )
  })

  it('warns, by the closest known name, of CLUBCRED_* variables it does not know, and of nothing else', () => {
    assert.deepEqual(unknownVariableWarnings({ CLUBCRED_MAX_CONECTIONS: '5', CLUBCRED_ROLE: 'api', PATH: '/bin', CLUBCRED_SOMETHING_ELSE_ENTIRELY: '1' }), [
      'CLUBCRED_MAX_CONECTIONS is not a clubcred variable and is ignored (did you mean CLUBCRED_MAX_CONNECTIONS?)',
      'CLUBCRED_SOMETHING_ELSE_ENTIRELY is not a clubcred variable and is ignored',
    ])
    assert.deepEqual(unknownVariableWarnings(Object.fromEntries(Object.values(VARIABLES).map((row) => [row.name, 'x']))), [])
  })

  it('npm start with five wrong variables exits 1 with one line naming each, quoting no secret, and writes nothing', async () => {
    const dataDir = freshDataDir()
    try {
      for (const entry of [['server/node.ts'], ['server/bin.ts', 'serve']]) {
        const { code, stderr } = await runStart(entry, { ...FIVE_WRONG, CLUBCRED_DATA_DIR: dataDir })
        assert.equal(code, 1, entry.join(' '))
        assert.match(stderr, /^clubcred: cannot start: 5 configuration errors: [^\n]*\n$/, entry.join(' '))
        for (const name of Object.keys(FIVE_WRONG)) assert.ok(stderr.includes(`${name} must`), `${entry.join(' ')}: names ${name}`)
        assert.ok(!stderr.includes(MASTER_KEY_TYPO) && !stderr.includes(DATABASE_PASSWORD), 'no secret printed')
        assert.deepEqual(readdirSync(dataDir), [], 'no SQLite file, no generated master key')
      }
    } finally {
      removeDataDir(dataDir)
    }
  })

  it('an admin command, like serve, warns of a mistyped variable also when the check then fails', async () => {
    const dataDir = freshDataDir()
    try {
      const env = { CLUBCRED_DATA_DIR: dataDir, CLUBCRED_DATABASE_URL: 'postgres://db.internal/clubcred', CLUBCRED_MASTR_KEY: MASTER_KEY_TYPO }
      const warning = 'clubcred: warning: CLUBCRED_MASTR_KEY is not a clubcred variable and is ignored (did you mean CLUBCRED_MASTER_KEY?)\n'
      const admin = await runStart(['server/bin.ts', 'club', 'create', '--domain', 'chess', '--name', 'Chess'], env)
      assert.equal(admin.code, 1)
      assert.equal(JSON.parse(admin.stdout).error.code, 'configuration')
      assert.equal(admin.stderr, warning)
      const serve = await runStart(['server/bin.ts', 'serve'], env)
      assert.equal(serve.code, 1)
      assert.ok(serve.stderr.startsWith(warning), serve.stderr)
      assert.ok(![admin, serve].some(({ stdout, stderr }) => `${stdout}${stderr}`.includes(MASTER_KEY_TYPO)), 'no value printed')
    } finally {
      removeDataDir(dataDir)
    }
  })

  it('a server with a mistyped variable starts, and says which variable it ignores', async () => {
    const dataDir = freshDataDir()
    const server = await spawnNode({ CLUBCRED_DATA_DIR: dataDir, CLUBCRED_MAX_CONECTIONS: '5' })
    try {
      assert.match(
        server.stderr,
        /clubcred: warning: CLUBCRED_MAX_CONECTIONS is not a clubcred variable and is ignored \(did you mean CLUBCRED_MAX_CONNECTIONS\?\)\n/,
      )
      assert.equal((await server.http('/open-badges/v3/issuers/demo/did.json')).status, 200)
    } finally {
      await server.stop()
      removeDataDir(dataDir)
    }
  })

  for (const file of ['docs/install.md', 'README.md']) {
    it(`${file} holds the table of variables as the code renders it`, () => {
      const doc = readFileSync(join(ROOT, file), 'utf8')
      const match = /<!-- variables:start[^>]*-->\n([\s\S]*?)\n<!-- variables:end -->/.exec(doc)
      assert.ok(match, `${file} has the variables markers`)
      assert.equal(
        match[1],
        variablesMarkdown(),
        'regenerate: node --import tsx -e "import(\'./server/environment.ts\').then((m) => console.log(m.variablesMarkdown()))"',
      )
    })
  }
})
