/**
 * The package as users get it, packed once per run with `npm pack` (which builds dist/ with
 * `npm run build`) and installed once into a fresh project with no install script run: it works from
 * plain JavaScript without tsx, every export target ships in it, and the two packaging linters outside
 * verifiers run, publint and arethetypeswrong, find nothing we have not explained below; and its one
 * command, `clubcred`, serves and administers from the installed package (issue 18).
 * @see issue 12 (outside verifiers: the package as published)
 */
import assert from 'node:assert/strict'
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const root = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const require = createRequire(import.meta.url)

/**
 * What arethetypeswrong may report, each with the reason it is not a fault; any other problem fails.
 * Both follow from clubcred being ESM-only (`"type": "module"`, no `require` condition), which is a
 * decision, not an accident: every runtime we support imports ESM, and Node ≥ 20.19 can require() it.
 */
const ATTW_EXPLAINED: Record<string, string> = {
  'NoResolution node10':
    "TypeScript's legacy node10 resolution ignores `exports`, so no subpath can resolve there; consumers use node16, nodenext or bundler resolution",
  'CJSResolvesToESM node16-cjs': 'clubcred is ESM-only: a CommonJS consumer loads it with import() (or require() of ESM on Node ≥ 20.19)',
}

/** What publint may report, each with its reason; empty: publint finds nothing to explain. */
const PUBLINT_EXPLAINED: Record<string, string> = {}

interface Packed {
  tarball: string
  files: string[]
}

/** Every string target under an `exports` entry, whatever the nesting of conditions. */
function targetsOf(value: unknown, path: string[] = []): { path: string; target: string }[] {
  if (typeof value === 'string') return [{ path: path.join(' › '), target: value }]
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => targetsOf(inner, [...path, key]))
}

/** The test's environment without any server variable of its own, and the project's data dir. */
function envFor(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    // npm run sets npm_config_local_prefix to this checkout: npx must find the temp project's bin instead.
    if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST' && name !== 'npm_config_local_prefix') env[name] = value
  }
  return { ...env, CLUBCRED_DATA_DIR: dataDir, ...extra }
}

describe('the packed package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-pack-'))
  const project = join(dir, 'app')
  let packed: Packed
  before(
    () => {
      const [result] = JSON.parse(execFileSync(npm, ['pack', '--json', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' })) as {
        filename: string
        files: { path: string }[]
      }[]
      packed = { tarball: join(dir, result!.filename), files: result!.files.map((file) => file.path) }
      mkdirSync(project)
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
      // --ignore-scripts: no dependency install script runs. This embedder uses the memory storage, so
      // better-sqlite3 need not be compiled, and esbuild (through tsx) needs no postinstall (README).
      execFileSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', packed.tarball], { cwd: project, stdio: 'ignore' })
    },
    { timeout: 300_000 },
  )
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('installs into a fresh project and works from plain JavaScript', () => {
    writeFileSync(
      join(project, 'main.js'),
      `import { createIssuer, defaultUrls } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'
const issuer = createIssuer({ storage: createMemoryStorage(), masterKey: new Uint8Array(32).fill(3), urls: defaultUrls(8787) })
await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
const template = await issuer.achievements.create('chess', { name: '체스 입문', description: 'Beginners', tag: ['chess'] })
const { result } = await issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: [{ name: 'Kim', email: 'kim@example.com' }] })
await issuer.worker.drain()
const verdict = await issuer.verification.verify(result.results[0].resourceId)
const response = await issuer.fetch(new Request('http://localhost:8787/open-badges/v3/achievements/' + result.results[0].resourceId + '/verify'))
console.log(JSON.stringify({ isValid: verdict.isValid, status: verdict.status, name: verdict.payload.vc.name, http: response.status }))
await issuer.close()
`,
    )
    const output = execFileSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' })
    assert.deepEqual(JSON.parse(output.trim().split('\n').at(-1)!), { isValid: true, status: 'valid', name: '체스 입문', http: 200 })
  })

  it("tsx runs TypeScript without esbuild's postinstall, so allowScripts may deny it", () => {
    // Without its postinstall esbuild keeps its JavaScript launcher and finds the platform binary in its
    // optional dependency (@esbuild/<platform>) at run time; the postinstall only swaps the launcher for
    // that binary and downloads it when optional dependencies were left out.
    writeFileSync(join(project, 'typed.ts'), 'const answer: number = 42\nconsole.log(JSON.stringify({ answer }))\n')
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'typed.ts'], { cwd: project, encoding: 'utf8' })
    assert.deepEqual(JSON.parse(output), { answer: 42 })
  })

  it('every target of every export condition is a file in the tarball', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: unknown }
    const missing = targetsOf(manifest.exports).filter(({ target }) => !packed.files.includes(target.replace(/^\.\//, '')))
    assert.deepStrictEqual(missing, [], 'export targets a consumer would resolve to nothing')
  })

  it('publint reports nothing that is not explained', async () => {
    const bytes = readFileSync(packed.tarball)
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion' })
    const unexplained = messages.filter((message) => !(message.code in PUBLINT_EXPLAINED))
    assert.deepStrictEqual(
      unexplained.map((message) => `${message.type} ${message.code}: ${formatMessage(message, pkg, { color: false })}`),
      [],
    )
  })

  it('arethetypeswrong reports only what an ESM-only package implies', { timeout: 120_000 }, () => {
    const cli = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist/index.js')
    // --no-definitely-typed: look at our own .d.ts only, and never reach for the registry.
    // The report goes to a file: attw exits as soon as it has written it, and a pipe would lose the tail.
    const out = join(dir, 'attw.json')
    const fd = openSync(out, 'w')
    spawnSync(process.execPath, [cli, packed.tarball, '--format', 'json', '--no-definitely-typed'], { stdio: ['ignore', fd, 'inherit'] })
    closeSync(fd)
    const report = JSON.parse(readFileSync(out, 'utf8')) as { analysis: { problems: { kind: string; resolutionKind?: string; entrypoint?: string }[] } }
    const unexplained = report.analysis.problems.filter((problem) => !(`${problem.kind} ${problem.resolutionKind}` in ATTW_EXPLAINED))
    assert.deepStrictEqual(unexplained, [])
    // The explained kinds are still what the tool sees: if it stops reporting one, drop it above.
    const seen = new Set(report.analysis.problems.map((problem) => `${problem.kind} ${problem.resolutionKind}`))
    assert.deepStrictEqual([...seen].sort(), Object.keys(ATTW_EXPLAINED).sort())
  })

  /**
   * The one installed command (issue 18): in the same project, `npx clubcred serve` answers over HTTP and
   * `npx clubcred club create …` prints JSON, both from the built JavaScript under plain node. better-sqlite3
   * (an optional peer, which npm does not install by itself; no install script ran) is linked from this
   * checkout, where its native module is already built, instead of compiled again (docs/install.md, Tests).
   */
  describe('the installed clubcred command', () => {
    const dataDir = join(dir, 'data')

    /** `npx --no clubcred ...args` in the project: never fetched, only the installed bin. */
    const clubcred = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
        execFile(npx, ['--no', 'clubcred', ...args], { cwd: project, env: envFor(dataDir, env), timeout: 30_000 }, (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') return reject(error)
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
        })
      })

    before(() => {
      mkdirSync(dataDir)
      // Its dependencies (bindings, file-uri-to-path) resolve from its real path, in this checkout.
      symlinkSync(dirname(require.resolve('better-sqlite3/package.json')), join(project, 'node_modules/better-sqlite3'), 'dir')
    })

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
      const version = await clubcred(['version'])
      assert.equal(version.stdout, `${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`)
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
})
