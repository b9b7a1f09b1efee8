import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { webCryptoSigner } from '../../core/credentials/webcrypto-signer.ts'
import { HTTP_SERVER_DEFAULTS, readServerConfig, resolveUrls } from '../../server/config.ts'
import { wireIssuer } from '../../server/wire.ts'
import { tempDir } from '../support/temp-sqlite.ts'

/**
 * The HTTP server limits come from CLUBCRED_* variables; a value that is not a positive integer stops the
 * start with a message naming the variable, rather than running without the limit.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */
describe('HTTP server limits from the environment', () => {
  it('defaults when unset or empty, and the given values when set', () => {
    assert.deepEqual(readServerConfig({}).http, HTTP_SERVER_DEFAULTS)
    assert.deepEqual(readServerConfig({ CLUBCRED_MAX_CONNECTIONS: '' }).http, HTTP_SERVER_DEFAULTS)
    assert.deepEqual(
      readServerConfig({
        CLUBCRED_HEADERS_TIMEOUT_MS: '2000',
        CLUBCRED_REQUEST_TIMEOUT_MS: '9000',
        CLUBCRED_KEEP_ALIVE_TIMEOUT_MS: '1000',
        CLUBCRED_MAX_CONNECTIONS: '64',
        CLUBCRED_MAX_HEADERS_COUNT: '50',
      }).http,
      { headersTimeoutMs: 2000, requestTimeoutMs: 9000, keepAliveTimeoutMs: 1000, maxConnections: 64, maxHeadersCount: 50 },
    )
  })

  it('refuses values that are not positive integers, and a header timeout longer than the request timeout', () => {
    for (const value of ['0', '-5', '1.5', '10s', 'abc']) {
      assert.throws(() => readServerConfig({ CLUBCRED_HEADERS_TIMEOUT_MS: value }), {
        name: 'TypeError',
        message: /CLUBCRED_HEADERS_TIMEOUT_MS must be a positive integer/,
      })
    }
    assert.throws(() => readServerConfig({ CLUBCRED_HEADERS_TIMEOUT_MS: '70000' }), /must not exceed CLUBCRED_REQUEST_TIMEOUT_MS/)
  })
})

/** The signing lease of the worker. */
describe('CLUBCRED_SIGNING_LEASE_MS', () => {
  it('defaults to 60 s when unset or empty, and takes 1 s to 2 min', () => {
    assert.equal(readServerConfig({}).signingLeaseMs, 60_000)
    assert.equal(readServerConfig({ CLUBCRED_SIGNING_LEASE_MS: '' }).signingLeaseMs, 60_000)
    assert.equal(readServerConfig({ CLUBCRED_SIGNING_LEASE_MS: '1000' }).signingLeaseMs, 1000)
    assert.equal(readServerConfig({ CLUBCRED_SIGNING_LEASE_MS: '120000' }).signingLeaseMs, 120_000)
  })

  it("is the lease of the server's issuer", async (t) => {
    const dir = tempDir()
    const config = readServerConfig({ CLUBCRED_DATA_DIR: dir.path, CLUBCRED_SIGNING_LEASE_MS: '5000' })
    const issuer = await wireIssuer({ config, urls: resolveUrls(config, 8787), openDriver: betterSqlite3Driver, signer: webCryptoSigner })
    t.after(async () => {
      await issuer.close()
      dir.remove()
    })
    assert.equal(issuer.config.signingLeaseMs, 5000)
  })

  it('refuses anything else with a message naming the variable', () => {
    for (const value of ['999', '120001', '0', '-5', '1.5', '60s', 'abc']) {
      assert.throws(() => readServerConfig({ CLUBCRED_SIGNING_LEASE_MS: value }), {
        name: 'TypeError',
        message: /^CLUBCRED_SIGNING_LEASE_MS must be an integer from 1000 to 120000/,
      })
    }
  })
})

/** The clubs whose keys and status lists a server keeps in memory: its memory follows this, not the clubs it serves. */
describe('CLUBCRED_CLUB_CACHE_SIZE', () => {
  it('defaults to 1,000 when unset or empty, and takes any positive integer', () => {
    assert.equal(readServerConfig({}).clubCacheSize, 1000)
    assert.equal(readServerConfig({ CLUBCRED_CLUB_CACHE_SIZE: '' }).clubCacheSize, 1000)
    assert.equal(readServerConfig({ CLUBCRED_CLUB_CACHE_SIZE: '1' }).clubCacheSize, 1)
    assert.equal(readServerConfig({ CLUBCRED_CLUB_CACHE_SIZE: '250000' }).clubCacheSize, 250_000)
  })

  it("is the club cache size of the server's issuer", async (t) => {
    const dir = tempDir()
    const config = readServerConfig({ CLUBCRED_DATA_DIR: dir.path, CLUBCRED_CLUB_CACHE_SIZE: '42' })
    const issuer = await wireIssuer({ config, urls: resolveUrls(config, 8787), openDriver: betterSqlite3Driver, signer: webCryptoSigner })
    t.after(async () => {
      await issuer.close()
      dir.remove()
    })
    assert.equal(issuer.config.clubCacheSize, 42)
  })

  it('refuses anything else with a message naming the variable', () => {
    for (const value of ['0', '-5', '1.5', '1e3', '1000 ', 'abc']) {
      assert.throws(() => readServerConfig({ CLUBCRED_CLUB_CACHE_SIZE: value }), {
        name: 'TypeError',
        message: `CLUBCRED_CLUB_CACHE_SIZE must be a positive integer, got ${value}`,
      })
    }
  })
})
