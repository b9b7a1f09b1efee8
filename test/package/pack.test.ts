/**
 * The package as users get it, packed once per run with `npm pack` (which builds dist/ with
 * `npm run build`) and installed once into a fresh project with no install script run: it works from
 * plain JavaScript without tsx, every export target ships in it, and the two packaging linters outside
 * verifiers run, publint and arethetypeswrong, find nothing we have not explained below.
 * @see issue 12 (outside verifiers: the package as published)
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const root = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
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
})
