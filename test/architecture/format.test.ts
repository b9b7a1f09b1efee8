/**
 * The tree is formatted by Prettier with the project's config (`.prettierrc.json`), so that layout is
 * not a matter of taste or of review comments. `npm run format` fixes what this test finds.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

describe('the formatter', () => {
  it('every TypeScript file is as Prettier writes it', async () => {
    const unformatted: string[] = []
    const files = ['core', 'adapters', 'server', 'client', 'test', 'bench', 'examples'].flatMap((dir) =>
      readdirSync(`${ROOT}${dir}`, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${dir}/${name}`),
    )
    assert.ok(files.length > 300, `found only ${files.length} files`)
    for (const file of [...files, 'index.ts']) {
      const path = `${ROOT}${file}`
      const options = await prettier.resolveConfig(path)
      assert.ok(options, 'the project has a Prettier config')
      if (!(await prettier.check(await readFile(path, 'utf8'), { ...options, filepath: path }))) unformatted.push(file)
    }
    assert.deepEqual(unformatted, [], 'run npm run format')
  })
})
