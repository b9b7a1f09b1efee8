/**
 * A driver left out of the install (`npm install --omit=optional`) is one line naming the package to
 * install, and only a missing driver is: each case imports a real module, from a folder outside this
 * checkout where the package does not resolve. test/package/pack.test.ts runs the installed command on it.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import { DriverMissing, loadDriver } from '../../server/load-driver.ts'

describe('loading a database driver', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-load-driver-'))
  after(() => rmSync(dir, { recursive: true, force: true }))

  /** A module in the temp folder that imports `specifier` (nothing resolves there but Node's own modules). */
  const moduleImporting = (name: string, specifier: string) => {
    const file = join(dir, `${name}.mjs`)
    writeFileSync(file, `import driver from '${specifier}'\nexport default driver\n`)
    return pathToFileURL(file).href
  }

  it('a missing better-sqlite3 becomes DriverMissing, whose message names the package and the command', async () => {
    const url = moduleImporting('sqlite', 'better-sqlite3')
    const error = await loadDriver('better-sqlite3', () => import(url)).catch((caught: unknown) => caught)
    assert.ok(error instanceof DriverMissing)
    assert.equal(error.packageName, 'better-sqlite3')
    assert.equal(error.message, 'the SQLite driver better-sqlite3 is not installed (an optional dependency of clubcred): npm install better-sqlite3')
    assert.equal((error.cause as NodeJS.ErrnoException).code, 'ERR_MODULE_NOT_FOUND')
  })

  it('a missing postgres names postgres', async () => {
    const url = moduleImporting('postgres', 'postgres')
    await assert.rejects(
      loadDriver('postgres', () => import(url)),
      new DriverMissing('postgres'),
    )
  })

  it("another missing package is not the driver's absence and is rethrown as it is", async () => {
    // A dependency of the driver, or the other driver: not what this import loads, so no advice to install it.
    for (const specifier of ['bindings', 'postgres', 'better-sqlite3-extra']) {
      const url = moduleImporting(`other-${specifier}`, specifier)
      const error = await loadDriver('better-sqlite3', () => import(url)).catch((caught: unknown) => caught)
      assert.ok(!(error instanceof DriverMissing), specifier)
      assert.equal((error as NodeJS.ErrnoException).code, 'ERR_MODULE_NOT_FOUND', specifier)
    }
  })

  it('an installed driver loads', async () => {
    const { betterSqlite3Driver } = await loadDriver('better-sqlite3', () => import('../../adapters/sqlite/driver-better-sqlite3.ts'))
    const driver = betterSqlite3Driver(':memory:')
    assert.deepEqual(driver.prepare('SELECT 1 AS one').get(), { one: 1 })
    driver.close()
  })
})
