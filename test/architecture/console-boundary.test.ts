/**
 * The staff console is a room of its own beside the HTTP face (docs/architecture.md § The console):
 * adapters/admin/ uses adapters/http/ (its body reader, its `html` template, its mounted-surface type),
 * never the other way round, and the console is wired in by the composition root (index.ts).
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dirname, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importsOf, type ImportEdge } from './import-graph.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The imports among `edges` whose relative specifier lands in `folder` (relative to ROOT). */
const into = (edges: ImportEdge[], folder: string) => {
  const target = resolve(ROOT, folder)
  return edges
    .filter(({ file, specifier }) => specifier.startsWith('.') && `${resolve(ROOT, dirname(file), specifier)}${sep}`.startsWith(`${target}${sep}`))
    .map(({ file, line, specifier }) => `${file}:${line} imports ${specifier}`)
}

describe('the console beside the HTTP face', () => {
  it('adapters/http/ imports nothing from adapters/admin/', () => {
    assert.deepEqual(into(importsOf(ROOT, 'adapters/http'), 'adapters/admin'), [])
  })

  it('adapters/admin/ does use adapters/http/, and the root entry wires the console in (the check reads real edges)', () => {
    assert.ok(into(importsOf(ROOT, 'adapters/admin'), 'adapters/http').length > 0)
    assert.deepEqual(into(importsOf(ROOT, 'index.ts'), 'adapters/admin'), ['index.ts:13 imports ./adapters/admin/surface.ts'])
  })
})
