/**
 * postgres.js's own queries whose failure nobody handles (adapters/postgres/stray-connection-error.ts),
 * with the real driver on a real server behind a loopback proxy: a lost connection during the driver's
 * type fetch ends an unguarded process, and the server's guard keeps one alive with a working pool.
 * When a driver release fixes it, the first test fails: then that part of the guard can go.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { isStrayConnectionError } from '../../adapters/postgres/stray-connection-error.ts'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { jsonLines } from '../support/json.ts'
import { ROOT } from '../support/server.ts'

describe("postgres.js's unhandled failure of its own type fetch", { timeout: 120_000 }, () => {
  let server: TestPostgres
  before(async () => {
    server = await startPostgres()
  })
  after(() => server?.stop())

  const child = (guard: boolean) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'test/support/stray-rejection-child.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: server.url, GUARD: guard ? '1' : '0' },
      encoding: 'utf8',
      timeout: 60_000,
    })

  it('ends an unguarded process with the unhandled 57P01 (the driver defect is still there)', () => {
    const result = child(false)
    assert.equal(result.status, 1, result.stdout + result.stderr)
    assert.match(result.stderr, /terminating connection due to administrator command/)
    assert.doesNotMatch(result.stdout, /survived/)
  })

  it("the server's guard logs one line, the process lives on and the pool answers again", () => {
    const result = child(true)
    assert.equal(result.status, 0, result.stdout + result.stderr)
    const lines = jsonLines(result.stdout)
    assert.equal(lines.length, 1, result.stdout)
    assert.equal(lines[0].level, 'warn')
    assert.match(lines[0].msg, /^a PostgreSQL connection was lost while the driver ran a query of its own.*\(57P01; postgres\.js#1192\)/)
    assert.match(result.stdout, /^then: 2$/m)
    assert.match(result.stdout, /^survived$/m)
  })

  it('matches a lost connection on driver frames only', () => {
    const driverFrames = [
      '    at Socket.closed (file:///srv/node_modules/postgres/src/connection.js:453:57)',
      '    at Socket.emit (node:events:524:28)',
      '    at TCP.<anonymous> (node:net:343:12)',
    ].join('\n')
    const error = (code: unknown, stack: string) => Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code, stack: `Error: lost\n${stack}` })
    assert.equal(isStrayConnectionError(error('CONNECTION_CLOSED', driverFrames)), true)
    assert.equal(isStrayConnectionError(error('57P01', driverFrames)), true)
    assert.equal(isStrayConnectionError(error('08006', driverFrames)), true)
    assert.equal(
      isStrayConnectionError(
        error('CONNECTION_CLOSED', driverFrames.replace('/srv/node_modules/postgres/src', '/deno/npm/registry.npmjs.org/postgres/3.4.9/src')),
      ),
      true,
    )
    // A query of ours that nobody awaited carries the frame that made it: still fatal.
    assert.equal(
      isStrayConnectionError(error('CONNECTION_CLOSED', `${driverFrames}\n    at Object.claim (file:///srv/adapters/postgres/signing-jobs.ts:40:7)`)),
      false,
    )
    assert.equal(isStrayConnectionError(error('23505', driverFrames)), false, 'not a lost connection')
    assert.equal(isStrayConnectionError(error(undefined, driverFrames)), false)
    assert.equal(isStrayConnectionError(error('CONNECTION_CLOSED', '    at Socket.emit (node:events:524:28)')), false, 'no driver frame')
    assert.equal(isStrayConnectionError('CONNECTION_CLOSED'), false)
  })
})
