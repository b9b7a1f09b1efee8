/**
 * The export maps (docs/decisions/0025-package-and-installation.md). deno.json (Deno, the sources) is the reference: a subpath is the folder path
 * of its source file. package.json exports the same subpaths built under dist/, and publishes nothing
 * else: a condition pointing at a file outside `files` would resolve to nothing for a consumer who sets it.
 * Inside the repository, tests and examples import `clubcred/…` by name and get the sources through
 * tsconfig.json `paths` (tsc and tsx both read it), which must name the same subpaths at the same files.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = new URL('../../', import.meta.url)
const readJson = (name: string) => JSON.parse(readFileSync(new URL(name, root), 'utf8'))

const pkg = readJson('package.json') as { files: string[]; exports: Record<string, Record<string, string>> }
const denoExports = readJson('deno.json').exports as Record<string, string>
const tsconfigPaths = readJson('tsconfig.json').compilerOptions.paths as Record<string, string[]>

/** `./sqlite` → `clubcred/sqlite`, `.` → `clubcred`: the specifier a consumer writes. */
const specifierOf = (subpath: string) => `clubcred${subpath.slice(1)}`
/** `./adapters/sqlite/index.ts` → `./dist/adapters/sqlite/index`: where `npm run build` emits it. */
const builtOf = (source: string) => source.replace(/^\.\//, './dist/').replace(/\.ts$/, '')

describe('export maps', () => {
  it('every deno.json source file exists', () => {
    for (const [subpath, source] of Object.entries(denoExports)) {
      assert.ok(existsSync(fileURLToPath(new URL(source, root))), `${subpath} → ${source} does not exist`)
    }
  })

  it('a subpath is the folder path of its file: adapters/ dropped, index.ts the folder, driver-X.ts the folder/X', () => {
    for (const [subpath, source] of Object.entries(denoExports)) {
      const expected = source
        .replace(/^\.\/adapters\//, './')
        .replace(/\/index\.ts$/, '')
        .replace(/^\.\/index\.ts$/, '.')
        .replace(/\/driver-([^/]+)\.ts$/, '/$1')
      assert.equal(subpath, expected, `${subpath} → ${source}`)
    }
  })

  it('package.json exports the deno.json subpaths, each as its built .d.ts and .js under dist/ and nothing else', () => {
    const expected = Object.fromEntries(
      Object.entries(denoExports).map(([subpath, source]) => [subpath, { types: `${builtOf(source)}.d.ts`, default: `${builtOf(source)}.js` }]),
    )
    assert.deepStrictEqual(pkg.exports, expected)
  })

  it('every package.json export target is inside a folder or file the package publishes', () => {
    const published = (target: string) => pkg.files.some((entry) => target === `./${entry}` || target.startsWith(`./${entry}/`))
    for (const [subpath, conditions] of Object.entries(pkg.exports)) {
      for (const [condition, target] of Object.entries(conditions)) {
        assert.ok(published(target), `${subpath} [${condition}] → ${target} is not in files ${JSON.stringify(pkg.files)}`)
      }
    }
  })

  it('tsconfig.json paths map each subpath, by its package name, to the deno.json source file', () => {
    const expected = Object.fromEntries(Object.entries(denoExports).map(([subpath, source]) => [specifierOf(subpath), [source]]))
    assert.deepStrictEqual(tsconfigPaths, expected)
  })

  it('inside the repository clubcred/… resolves to the sources under tsx, and to dist/ under plain node', () => {
    const script = `console.log(JSON.stringify(${JSON.stringify(Object.keys(denoExports).map(specifierOf))}.map((s) => import.meta.resolve(s))))`
    const resolve = (loader: string[]) =>
      JSON.parse(execFileSync(process.execPath, [...loader, '--input-type=module', '-e', script], { cwd: fileURLToPath(root), encoding: 'utf8' })) as string[]
    const asUrls = (paths: string[]) => paths.map((path) => new URL(path, root).href)
    assert.deepStrictEqual(resolve(['--import', 'tsx']), asUrls(Object.values(denoExports)))
    assert.deepStrictEqual(resolve([]), asUrls(Object.values(denoExports).map((source) => `${builtOf(source)}.js`)))
  })
})
