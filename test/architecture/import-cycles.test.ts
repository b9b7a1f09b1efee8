/**
 * The source has no import cycle (docs/architecture.md § Layers): not in adapters/http, where the operation
 * table imports the route files and nothing imports back, and not anywhere else in core/, adapters/,
 * server/, client/ or index.ts. Type-only imports count: the mappings of `core/achievements/surfaces/`
 * and the form files (`v1-form.ts`, `legacy-form.ts`) imported each other, one way only for a type, and a
 * check of adapters/http alone did not see it.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importCycles } from './import-graph.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Everything the package ships: each layer and the root entry point. */
const SOURCE = ['core', 'adapters', 'server', 'client', 'index.ts']

describe('the import graph of the source', () => {
  it('has no cycle, type-only imports counted', () => {
    assert.deepEqual(importCycles(ROOT, ...SOURCE), [])
  })

  it('is read across layers: core, adapters, server, client and index.ts all have edges in it', () => {
    const cyclesOf = (files: Record<string, string>) => {
      const root = mkdtempSync(join(tmpdir(), 'clubcred-cycles-'))
      try {
        for (const [path, text] of Object.entries(files)) {
          mkdirSync(join(root, path, '..'), { recursive: true })
          writeFileSync(join(root, path), text)
        }
        return importCycles(root, ...SOURCE)
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    }
    const cycles = cyclesOf({
      'index.ts': "export * from './client/index.ts'\n",
      'client/index.ts': "import type { Port } from '../core/port.ts'\n",
      'core/port.ts': "export type { Wire } from '../server/wire.ts'\n",
      'server/wire.ts': "import { adapter } from '../adapters/memory/index.ts'\n",
      'adapters/memory/index.ts': "const entry = import('../../index.ts')\n",
    })
    assert.equal(cycles.length, 1, JSON.stringify(cycles))
    assert.deepEqual([...new Set(cycles[0])].sort(), ['adapters/memory/index.ts', 'client/index.ts', 'core/port.ts', 'index.ts', 'server/wire.ts'])
  })

  it('the cycle finder names a cycle through a sub-folder, made of type-only imports alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'clubcred-cycles-'))
    try {
      mkdirSync(join(root, 'core', 'surfaces'), { recursive: true })
      writeFileSync(join(root, 'core', 'form.ts'), "import {\n  type Draft,\n  draftFrom,\n} from './surfaces/v1.ts'\n")
      writeFileSync(join(root, 'core', 'surfaces', 'v1.ts'), "import type { FormInput } from '../form.ts'\nimport * as v from 'valibot'\n")
      writeFileSync(join(root, 'core', 'views.ts'), "export type { View } from './read.ts'\n")
      writeFileSync(join(root, 'core', 'read.ts'), "type Options = import('./views.ts').Options\n")
      writeFileSync(join(root, 'core', 'leaf.ts'), "import { draftFrom } from './surfaces/v1.ts'\n")
      const cycles = importCycles(root, 'core')
      assert.equal(cycles.length, 2, JSON.stringify(cycles))
      assert.deepEqual(cycles.map((cycle) => [...new Set(cycle)].sort()).sort(), [
        ['core/form.ts', 'core/surfaces/v1.ts'],
        ['core/read.ts', 'core/views.ts'],
      ])
      for (const cycle of cycles) assert.equal(cycle.at(0), cycle.at(-1))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
