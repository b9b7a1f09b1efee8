/**
 * The one installed command (issue 18): the package packed with `npm pack` (which builds dist/) and
 * installed into an empty project, where `npx clubcred serve` answers over HTTP and `npx clubcred club
 * create …` prints JSON, both from the built JavaScript under plain node.
 *
 * The install is offline-safe and fast: dependencies come from the npm cache (`--prefer-offline`), no
 * install script runs, and better-sqlite3 (an optional peer, which npm does not install by itself) is
 * linked from this checkout, where its native module is already built, instead of compiled again.
 * @see docs/install.md, Tests
 */
import assert from 'node:assert/strict'
import { execFile, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const require = createRequire(import.meta.url)

/** The test's environment without any server variable of its own, and the project's data dir. */
function envFor(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    // npm run sets npm_config_local_prefix to this checkout: npx must find the temp project's bin instead.
    if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST' && name !== 'npm_config_local_prefix') env[name] = value
  }
  return { ...env, CLUBCRED_DATA_DIR: dataDir, ...extra }
}

describe('the installed clubcred command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-bin-'))
  const project = join(dir, 'app')
  const dataDir = join(dir, 'data')

  /** `npx --no clubcred ...args` in the project: never fetched, only the installed bin. */
  const clubcred = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      execFile(npx, ['--no', 'clubcred', ...args], { cwd: project, env: envFor(dataDir, env), timeout: 30_000 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error)
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
      })
    })

  before(
    () => {
      const [packed] = JSON.parse(execFileSync(npm, ['pack', '--json', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' })) as {
        filename: string
      }[]
      mkdirSync(project)
      mkdirSync(dataDir)
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }))
      execFileSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed!.filename)], {
        cwd: project,
        stdio: 'ignore',
      })
      // Its dependencies (bindings, file-uri-to-path) resolve from its real path, in this checkout.
      symlinkSync(dirname(require.resolve('better-sqlite3/package.json')), join(project, 'node_modules/better-sqlite3'), 'dir')
    },
    { timeout: 300_000 },
  )
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('is the built dist/server/bin.js of the installed package, an executable with a node shebang', () => {
    const bin = realpathSync(join(project, 'node_modules/.bin/clubcred'))
    assert.equal(bin, realpathSync(join(project, 'node_modules/clubcred/dist/server/bin.js')))
    assert.match(readFileSync(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/)
    assert.ok(statSync(bin).mode & 0o111, 'executable')
  })

  it('npx clubcred serve starts the server, which answers over HTTP, and stops on SIGTERM', { timeout: 60_000 }, async () => {
    // Its own process group, so that SIGTERM reaches node behind npx.
    const child = spawn(npx, ['--no', 'clubcred', 'serve'], {
      cwd: project,
      env: envFor(dataDir, { PORT: '0', HOST: '127.0.0.1' }),
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening" within 30 s:\n${stderr}`)), 30_000)
        child.stderr.on('data', () => {
          const match = /clubcred listening on (\S+)\n/.exec(stderr)
          if (!match) return
          clearTimeout(timer)
          resolve(match[1]!)
        })
        void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${stderr}`)))
      })
      const response = await fetch(`${url}/open-badges/v3/issuers/demo/did.json`)
      assert.equal(response.status, 200)
      const did = (await response.json()) as { id: string; verificationMethod: unknown[] }
      assert.match(did.id, /^did:web:localhost%3A[0-9]+:open-badges:v3:issuers:demo$/)
      assert.ok(did.verificationMethod.length >= 1)
    } finally {
      process.kill(-child.pid!, 'SIGTERM')
      const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))])
      if (!stopped) process.kill(-child.pid!, 'SIGKILL')
      assert.ok(stopped, 'stopped within 10 s of SIGTERM')
    }
  })

  it('npx clubcred club create prints the club as one JSON object', async () => {
    const { code, stdout, stderr } = await clubcred(['club', 'create', '--domain', 'chess', '--name', 'Chess Club'])
    assert.equal(code, 0, stderr)
    const club = JSON.parse(stdout) as { domain: string; name: string }
    assert.deepEqual([club.domain, club.name], ['chess', 'Chess Club'])
    const listed = await clubcred(['apikey', 'list', '--club', 'chess'])
    assert.deepEqual(JSON.parse(listed.stdout), { club: 'chess', api_keys: [] })
  })

  it('npx clubcred help and serve --help answer from the package; a wrong configuration names each variable', async () => {
    // `npx clubcred --help` is npm's own help; `clubcred help` is ours.
    for (const args of [['help'], ['help', 'club', 'create']]) {
      const help = await clubcred(args)
      assert.equal(help.code, 0)
      assert.match(help.stdout, /(\n {2}|^usage: clubcred )club create --domain D --name N \[--no-issue\]\n/)
    }
    const serveHelp = await clubcred(['serve', '--help'])
    assert.equal(serveHelp.code, 0)
    assert.match(serveHelp.stdout, /\n {2}CLUBCRED_DATA_DIR {2}\(default: \.\/data\)\n/)
    const wrong = await clubcred(['serve'], { PORT: 'http', CLUBCRED_ROLE: 'signer' })
    assert.equal(wrong.code, 1)
    assert.match(
      wrong.stderr,
      /clubcred: cannot start: 2 configuration errors: PORT must be a port number, got http; CLUBCRED_ROLE must be one of all, api, worker, got signer\n/,
    )
  })
})
