/**
 * adapters/http/ has no import cycle: the operation table imports the route files, the route files
 * import the router's helpers, and nothing imports back (issue 14: routes/club-api.ts and
 * routes/designs.ts, routes/issuances.ts imported each other). @see issue 14
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importCycles } from './import-graph.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

describe('the import graph of adapters/http', () => {
  it('has no cycle', () => {
    assert.deepEqual(importCycles(ROOT, 'adapters/http'), [])
  })

  it('the cycle finder names a cycle through a sub-folder, type-only imports included', () => {
    const root = mkdtempSync(join(tmpdir(), 'clubcred-cycles-'))
    try {
      mkdirSync(join(root, 'http', 'routes'), { recursive: true })
      writeFileSync(join(root, 'http', 'table.ts'), "import { a } from './routes/a.ts'\n")
      writeFileSync(join(root, 'http', 'routes', 'a.ts'), "import type { T } from '../table.ts'\nimport { x } from 'itty-router'\n")
      writeFileSync(join(root, 'http', 'leaf.ts'), "import { a } from './routes/a.ts'\n")
      const cycles = importCycles(root, 'http')
      assert.equal(cycles.length, 1, JSON.stringify(cycles))
      assert.deepEqual([...new Set(cycles[0])].sort(), ['http/routes/a.ts', 'http/table.ts'])
      assert.equal(cycles[0]!.at(0), cycles[0]!.at(-1))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
