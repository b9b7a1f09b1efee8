/**
 * postgres.js's write after a connection closed (adapters/postgres/write-after-close.ts), with the real
 * driver on a real server: it ends a process unguarded, and the server's guard keeps one alive. When a
 * driver release fixes it, the first test fails: then the guard can go.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { isWriteAfterClose } from '../../adapters/postgres/write-after-close.ts'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { jsonLines } from '../support/json.ts'
import { ROOT } from '../support/server.ts'

describe("postgres.js's write after a connection closed", { timeout: 120_000 }, () => {
  let server: TestPostgres
  before(async () => {
    server = await startPostgres()
  })
  after(() => server?.stop())

  const child = (guard: boolean) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'test/support/write-after-close-child.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: server.url, GUARD: guard ? '1' : '0' },
      encoding: 'utf8',
      timeout: 60_000,
    })

  it('ends an unguarded process with an uncatchable TypeError (the driver defect is still there)', () => {
    const result = child(false)
    assert.equal(result.status, 1, result.stdout)
    assert.match(result.stderr, /TypeError: Cannot read properties of null \(reading 'write'\)/)
    assert.match(result.stderr, /nextWrite .*postgres[\\/]src[\\/]connection\.js/)
    assert.doesNotMatch(result.stdout, /survived/)
  })

  it("the server's guard logs one line and the process lives on", () => {
    const result = child(true)
    assert.equal(result.status, 0, result.stderr)
    const lines = jsonLines(result.stdout)
    assert.equal(lines.length, 1, result.stdout)
    assert.equal(lines[0].level, 'warn')
    assert.match(lines[0].msg, /^a PostgreSQL connection closed under a unit of work/)
    assert.match(result.stdout, /^survived$/m)
  })

  it('matches that error only', () => {
    const driverFrame = '    at Immediate.nextWrite (file:///srv/node_modules/postgres/src/connection.js:255:22)'
    const error = (message: string, frame: string, type: ErrorConstructor = TypeError) =>
      Object.assign(new type(message), { stack: `${type.name}: ${message}\n${frame}` })
    assert.equal(isWriteAfterClose(error("Cannot read properties of null (reading 'write')", driverFrame)), true)
    assert.equal(
      isWriteAfterClose(
        error(
          "Cannot read properties of null (reading 'write')",
          driverFrame.replace('/srv/node_modules/postgres/src', '/deno/npm/registry.npmjs.org/postgres/3.4.9/src'),
        ),
      ),
      true,
    )
    assert.equal(isWriteAfterClose(error("Cannot read properties of null (reading 'end')", driverFrame)), false)
    assert.equal(isWriteAfterClose(error("Cannot read properties of null (reading 'write')", '    at nextWrite (file:///srv/core/issuer.js:1:1)')), false)
    assert.equal(isWriteAfterClose(error("Cannot read properties of null (reading 'write')", driverFrame, Error)), false)
    assert.equal(isWriteAfterClose("Cannot read properties of null (reading 'write')"), false)
  })
})
