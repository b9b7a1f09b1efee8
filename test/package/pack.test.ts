/**
 * The package as users get it (docs/install.md § Install from the package), packed once per run with
 * `npm pack` (which builds a clean dist/ through `prepack`) and installed twice into empty projects as a
 * user installs it: `npm install <tarball>` with install scripts on, and `npm install --omit=optional`.
 * The first has the database drivers and its one command, `clubcred`, serves and administers; the second
 * has neither driver, and the command says in one line which package to install, while an embedder on
 * the memory storage and the PDF renderer work from plain JavaScript. The tarball ships no source map,
 * no file of an earlier build, and the fonts the PDF reads; publint and arethetypeswrong find nothing we
 * have not explained below.
 */
import assert from 'node:assert/strict'
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
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

/** Placed in dist/ before packing: the build starts from an empty dist/, so it must not ship. */
const STALE_FILE = 'dist/left-by-an-earlier-build.js'

/** The one line of a command that needs the SQLite driver where it is not installed. */
const SQLITE_MISSING = 'the SQLite driver better-sqlite3 is not installed (an optional dependency of clubcred): npm install better-sqlite3'

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

/** `npx --no clubcred ...args` in a project: never fetched, only the installed bin. */
function clubcredIn(project: string, dataDir: string) {
  return (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      execFile(npx, ['--no', 'clubcred', ...args], { cwd: project, env: envFor(dataDir, env), timeout: 30_000 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error)
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
      })
    })
}

/**
 * Where better-sqlite3's install script gets its native module. On a user's machine `prebuild-install`
 * downloads a prebuilt binary from the package's GitHub releases (compiling is the fallback, minutes
 * long); here the same download comes from loopback, which serves this checkout's own build of the same
 * version, packed as a release asset is, at the path prebuild-install asks of a host set by
 * `npm_config_better_sqlite3_binary_host` (prebuild-install's util.js). Any other path is 404.
 */
async function startPrebuildHost(dir: string) {
  const packageDir = dirname(require.resolve('better-sqlite3/package.json'))
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }
  const archive = join(dir, 'prebuilt.tar.gz')
  execFileSync('tar', ['-czf', archive, '-C', packageDir, 'build/Release/better_sqlite3.node'])
  // `{name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz` under `/v{version}/`.
  const asset = new RegExp(`^/v${version}/better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}(musl)?-${process.arch}\\.tar\\.gz$`)
  const requests: { path: string; status: number }[] = []
  const server: Server = createServer((req, res) => {
    const found = asset.test(req.url ?? '')
    requests.push({ path: req.url ?? '', status: found ? 200 : 404 })
    if (!found) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(archive))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests,
    /** prebuild-install keeps each download in npm's cache under a name of its URL (util.js `cachedPrebuild`): one per run, removed. */
    cachedDownloads: (cache: string) =>
      requests
        .filter(({ status }) => status === 200)
        .map(({ path }) => {
          const digest = createHash('sha512')
            .update(url + path)
            .digest('hex')
            .slice(0, 6)
          return join(cache, '_prebuilds', `${digest}-${basename(path).replace(/[^a-zA-Z0-9.]+/g, '-')}`)
        }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** An empty project that approves better-sqlite3's install script, as the README tells users (npm 12 runs only approved ones). */
function emptyProject(path: string): string {
  mkdirSync(path)
  writeFileSync(join(path, 'package.json'), JSON.stringify({ name: basename(path), private: true, type: 'module', allowScripts: { 'better-sqlite3': true } }))
  return path
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(dir, path)).isFile())
}

describe('the packed package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-pack-'))
  /** `npm install <tarball>`: the drivers, built by their install script. */
  const project = join(dir, 'app')
  /** `npm install --omit=optional <tarball>`: no driver. */
  const bare = join(dir, 'bare')
  let packed: Packed
  let prebuildHost: Awaited<ReturnType<typeof startPrebuildHost>>
  let npmCache: string

  before(
    async () => {
      mkdirSync(join(root, 'dist'), { recursive: true })
      writeFileSync(join(root, STALE_FILE), 'export const stale = true\n')
      const [result] = JSON.parse(execFileSync(npm, ['pack', '--json', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' })) as {
        filename: string
        files: { path: string }[]
      }[]
      packed = { tarball: join(dir, result!.filename), files: result!.files.map((file) => file.path) }
      prebuildHost = await startPrebuildHost(dir)
      npmCache = execFileSync(npm, ['config', 'get', 'cache'], { encoding: 'utf8' }).trim()
      const install = (cwd: string, flags: string[], env: NodeJS.ProcessEnv = process.env) =>
        promisify(execFile)(npm, ['install', ...flags, '--no-audit', '--no-fund', '--prefer-offline', packed.tarball], { cwd, env })
      // The two installs share npm's cache and run at once.
      await Promise.all([
        install(emptyProject(project), [], { ...process.env, npm_config_better_sqlite3_binary_host: prebuildHost.url }),
        // Nothing optional is installed, so no install script is left to run.
        install(emptyProject(bare), ['--omit=optional', '--ignore-scripts']),
      ])
    },
    { timeout: 300_000 },
  )
  after(async () => {
    await prebuildHost?.close()
    for (const file of prebuildHost?.cachedDownloads(npmCache) ?? []) rmSync(file, { force: true })
    rmSync(dir, { recursive: true, force: true })
  })

  describe('the tarball', () => {
    it('ships no source map: no .map file and no sourceMappingURL comment', () => {
      assert.deepEqual(
        packed.files.filter((path) => path.endsWith('.map')),
        [],
      )
      const installed = join(bare, 'node_modules/clubcred')
      const commented = filesUnder(installed).filter(
        (path) => /\.[cm]?[jt]s$/.test(path) && readFileSync(join(installed, path), 'utf8').includes('sourceMappingURL'),
      )
      assert.deepEqual(commented, [])
    })

    it('is built into an emptied dist/: a file left there by an earlier build is not packed', () => {
      assert.ok(!packed.files.includes(STALE_FILE), `${STALE_FILE} was packed`)
      assert.ok(packed.files.includes('dist/index.js'))
    })

    it('holds the two Pretendard faces the PDF reads, beside their licence', () => {
      for (const file of ['Pretendard-Regular.ttf', 'Pretendard-Bold.ttf', 'OFL.txt']) assert.ok(packed.files.includes(`dist/adapters/pdf/fonts/${file}`), file)
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
  })

  /**
   * `npm install <tarball>` in an empty project, install scripts on: the command has its default storage
   * (better-sqlite3, whose install script fetched its prebuilt native module) and answers from the built
   * JavaScript under plain node.
   */
  describe('installed with npm install', () => {
    const dataDir = join(dir, 'data')
    const clubcred = clubcredIn(project, dataDir)
    before(() => mkdirSync(dataDir))

    it('brings both database drivers, better-sqlite3 with the native module its install script downloaded', () => {
      assert.deepEqual(
        prebuildHost.requests.map(({ status }) => status),
        [200],
        `prebuild-install asked for ${JSON.stringify(prebuildHost.requests)}`,
      )
      assert.ok(existsSync(join(project, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')))
      assert.ok(existsSync(join(project, 'node_modules/postgres/package.json')))
    })

    it("brings no build tool: tsx, esbuild and typescript are the repository's dev dependencies only", () => {
      // --omit=dev changes nothing here: a dependency's dev dependencies are never installed.
      const present = ['tsx', 'esbuild', 'typescript', 'pretendard', 'qrcode'].filter((name) => existsSync(join(project, 'node_modules', name)))
      assert.deepEqual(present, [])
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

  /**
   * `npm install --omit=optional <tarball>`: what an embedder on the memory storage (or on Deno's
   * node:sqlite) installs. The library works from plain JavaScript, PDFs included; the command, whose
   * default storage is the SQLite file, says which package to install and exits 1.
   */
  describe('installed with npm install --omit=optional', () => {
    const dataDir = join(dir, 'bare-data')
    const clubcred = clubcredIn(bare, dataDir)

    it('has neither database driver', () => {
      assert.deepEqual(
        ['better-sqlite3', 'postgres'].filter((name) => existsSync(join(bare, 'node_modules', name))),
        [],
      )
    })

    it('npx clubcred serve exits 1 with one line naming better-sqlite3, and no stack', async () => {
      const { code, stdout, stderr } = await clubcred(['serve'], { PORT: '0', HOST: '127.0.0.1' })
      assert.equal(code, 1)
      assert.equal(stderr, `clubcred: cannot start: ${SQLITE_MISSING}\n`)
      assert.equal(stdout, '')
    })

    it('npx clubcred club create exits 1 with one JSON line naming better-sqlite3, and no stack', async () => {
      const { code, stdout, stderr } = await clubcred(['club', 'create', '--domain', 'chess', '--name', 'Chess Club'])
      assert.equal(code, 1)
      assert.equal(stdout, `${JSON.stringify({ error: { code: 'driver-missing', message: SQLITE_MISSING } })}\n`)
      assert.equal(stderr, '')
    })

    it('an embedder on the memory storage issues, verifies and renders a certificate PDF from plain JavaScript', () => {
      writeFileSync(
        join(bare, 'main.js'),
        `import { createIssuer, defaultUrls } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'
import { createPdfRenderer } from 'clubcred/pdf'
const issuer = createIssuer({ storage: createMemoryStorage(), masterKey: new Uint8Array(32).fill(3), urls: defaultUrls(8787), certificates: createPdfRenderer() })
await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
const template = await issuer.achievements.create('chess', { name: '체스 입문', description: 'Beginners', tag: ['chess'] })
const { result } = await issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: [{ name: '김민준', email: 'kim@example.com' }] })
await issuer.worker.drain()
const id = result.results[0].resourceId
const verdict = await issuer.verification.verify(id)
const response = await issuer.fetch(new Request('http://localhost:8787/open-badges/v3/achievements/' + id + '/verify'))
const pdf = await (await issuer.issuances.file('chess', id, 'pdf')).render()
console.log(JSON.stringify({ isValid: verdict.isValid, status: verdict.status, name: verdict.payload.vc.name, http: response.status, pdf: { header: new TextDecoder().decode(pdf.subarray(0, 5)), bytes: pdf.length } }))
await issuer.close()
`,
      )
      const output = execFileSync(process.execPath, ['main.js'], { cwd: bare, encoding: 'utf8' })
      const { pdf, ...verified } = JSON.parse(output.trim().split('\n').at(-1)!) as { pdf: { header: string; bytes: number } }
      assert.deepEqual(verified, { isValid: true, status: 'valid', name: '체스 입문', http: 200 })
      assert.equal(pdf.header, '%PDF-')
      // The embedded font subsets alone are several kilobytes: an empty or fontless page is far smaller.
      assert.ok(pdf.bytes > 10_000, `a PDF of ${pdf.bytes} bytes`)
    })
  })
})
