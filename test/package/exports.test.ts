/**
 * The two export maps (STYLE §1): package.json (Node, with a `clubcred-source` condition for the sources
 * and dist/ for the rest) and deno.json (Deno, the sources) name the same subpaths, each at the same
 * source file, and a subpath is the folder path of its file.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = new URL('../../', import.meta.url)
const readJson = (name: string) => JSON.parse(readFileSync(new URL(name, root), 'utf8')) as { exports: Record<string, unknown> }

type NodeTarget = string | { 'clubcred-source': string; types: string; default: string }
const nodeExports = readJson('package.json').exports as Record<string, NodeTarget>
const denoExports = readJson('deno.json').exports as Record<string, string>
const sourceOf = (target: NodeTarget) => (typeof target === 'string' ? target : target['clubcred-source'])

describe('export maps', () => {
  it('package.json and deno.json export the same subpaths at the same source files', () => {
    const fromNode = Object.fromEntries(Object.entries(nodeExports).map(([subpath, target]) => [subpath, sourceOf(target)]))
    assert.deepStrictEqual(denoExports, fromNode)
  })

  it('every exported source file exists', () => {
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

  it('the built entry of each package.json subpath is its source file under dist/, as .js and .d.ts', () => {
    for (const [subpath, target] of Object.entries(nodeExports)) {
      if (typeof target === 'string') continue
      const built = target['clubcred-source'].replace(/^\.\//, './dist/').replace(/\.ts$/, '')
      assert.deepStrictEqual({ types: target.types, default: target.default }, { types: `${built}.d.ts`, default: `${built}.js` }, subpath)
    }
  })
})
