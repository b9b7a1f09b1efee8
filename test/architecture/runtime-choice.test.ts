/**
 * Only the runtime entries choose a runtime (docs/architecture.md § Layers; docs/decisions/0028-public-api-and-runtime-boundary.md § Only the entries choose a runtime):
 * server/node.ts and server/deno.ts (and the admin CLI, a Node program of
 * its own) pick the SQLite driver and the signer and pass them into wiring, so that server/wire.ts serves
 * both runtimes and Deno loads only what its entry chose.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { importsOf } from './import-graph.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const ENTRIES = ['server/cli.ts', 'server/deno.ts', 'server/node.ts']
/** Modules that exist for one runtime: the SQLite drivers and the worker-thread signer. */
const RUNTIME_SPECIFIC = /adapters\/(sqlite\/driver-[a-z0-9-]+|node\/signer)\.ts$/

describe('the runtime choice', () => {
  it('only the entries of server/ import a SQLite driver or the worker-thread signer', () => {
    const choosers = importsOf(ROOT, 'server').filter((edge) => RUNTIME_SPECIFIC.test(edge.specifier))
    assert.deepEqual(
      choosers.filter((edge) => !ENTRIES.includes(edge.file)).map((edge) => `${edge.file}:${edge.line} imports ${edge.specifier}`),
      [],
    )
    assert.deepEqual([...new Set(choosers.map((edge) => edge.file))].sort(), ENTRIES, 'each entry makes its own choice')
  })
})
