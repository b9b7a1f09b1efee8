import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readServerConfig } from '../../server/config.ts'
import { exitCodeForSignal } from '../../server/shutdown.ts'

describe('CLUBCRED_SHUTDOWN_TIMEOUT_MS and the exit codes (docs/shutdown.md)', () => {
  it('defaults to 30 s, takes a positive integer, and names the variable when the value is wrong', () => {
    assert.equal(readServerConfig({}).shutdownTimeoutMs, 30_000)
    assert.equal(readServerConfig({ CLUBCRED_SHUTDOWN_TIMEOUT_MS: '5000' }).shutdownTimeoutMs, 5000)
    for (const wrong of ['0', '-1', '1.5', '30s', 'abc']) {
      assert.throws(
        () => readServerConfig({ CLUBCRED_SHUTDOWN_TIMEOUT_MS: wrong }),
        new RegExp(`CLUBCRED_SHUTDOWN_TIMEOUT_MS must be a positive integer, got ${wrong}`),
      )
    }
  })

  it('a second signal exits with 128 + its number', () => {
    assert.equal(exitCodeForSignal('SIGINT'), 130)
    assert.equal(exitCodeForSignal('SIGTERM'), 143)
  })
})
