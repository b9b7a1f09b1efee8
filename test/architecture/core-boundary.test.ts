/**
 * core/ runs on Node, Deno and any fetch-style runtime (docs/architecture.md § Layers): it imports no Node
 * built-in, nothing from adapters/, server/ or test/, and only packages that are themselves
 * runtime-agnostic.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { builtinModules } from 'node:module'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { coreBoundaryBreaches, importsOf } from './import-graph.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Packages core may import: pure JavaScript on web-standard APIs, no Node built-ins of their own. */
const CORE_PACKAGES = ['jose', 'valibot', '@noble/hashes', '@xmldom/xmldom', 'ipaddr.js', '@digitalbazaar/credentials-context'] as const

describe('the core boundary', () => {
  it('core/ imports no Node built-in, nothing outside core/ and only runtime-agnostic packages', () => {
    assert.deepEqual(coreBoundaryBreaches(ROOT, CORE_PACKAGES, builtinModules), [])
  })

  it('the graph reader sees core imports at all (a reader that finds nothing would pass the rule above)', () => {
    const edges = importsOf(ROOT, 'core')
    assert.ok(edges.some((edge) => edge.file === 'core/create-core-issuer.ts' && edge.specifier === './config.ts'))
    assert.ok(edges.some((edge) => edge.specifier === 'jose'))
  })

  it('names each kind of breach: node:, a bare built-in, adapters/ and server/ by relative path, an unlisted package', () => {
    const root = mkdtempSync(join(tmpdir(), 'clubcred-boundary-'))
    try {
      mkdirSync(join(root, 'core/issuances'), { recursive: true })
      writeFileSync(
        join(root, 'core/issuances/bad.ts'),
        [
          "import { readFileSync } from 'node:fs'",
          "import type { Server } from 'http'",
          "export { createSqliteStorage } from '../../adapters/sqlite/index.ts'",
          "import '../../server/wire.ts'",
          "const pg = await import('pg')",
          "import { ok } from '../errors.ts'",
          "import * as v from 'valibot'",
        ].join('\n'),
      )
      const breaches = coreBoundaryBreaches(root, CORE_PACKAGES, builtinModules)
      assert.deepEqual(breaches, [
        "core/issuances/bad.ts:1 imports 'node:fs': a Node built-in",
        "core/issuances/bad.ts:2 imports 'http': a Node built-in",
        "core/issuances/bad.ts:3 imports '../../adapters/sqlite/index.ts': outside core/",
        "core/issuances/bad.ts:4 imports '../../server/wire.ts': outside core/",
        "core/issuances/bad.ts:5 imports 'pg': a package core may not use",
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
