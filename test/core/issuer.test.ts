import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { DEFAULTS, defaultUrls } from '../../core/config.ts'
import { createCoreIssuer, type IssuerOptions } from '../../core/create-core-issuer.ts'
import { MASTER_KEY } from '../support/core-issuer.ts'

const valid = (): IssuerOptions => ({ storage: createMemoryStorage(), masterKey: MASTER_KEY, urls: defaultUrls(8787) })

describe('creating an issuer', () => {
  it('fills every default and strips trailing slashes from the URLs', () => {
    const issuer = createCoreIssuer({
      ...valid(),
      urls: { ...defaultUrls(9000), base: 'http://localhost:9000/api///', auth: 'http://localhost:9000/oauth/' },
    })
    assert.equal(issuer.config.accessTokenTtlSeconds, 900)
    assert.equal(issuer.config.maxBodyBytes, DEFAULTS.maxBodyBytes)
    assert.equal(issuer.config.clubCacheSize, 1000)
    assert.deepStrictEqual(issuer.config.clientAuthFailures, { limit: 10, windowSeconds: 60 })
    assert.equal(issuer.config.urls.base, 'http://localhost:9000/api')
    assert.equal(issuer.config.urls.auth, 'http://localhost:9000/oauth')
    assert.equal(issuer.config.problemBaseUrl, 'https://clubcred.dev/problems')
    assert.deepStrictEqual(issuer.config.files, {
      cacheBytes: 32 * 1024 * 1024,
      renderConcurrency: 2,
      renderQueue: 32,
      downloadsPerClub: { burst: 60, perSecond: 5 },
    })
  })

  it('takes the file limits member by member, and null for no download rate', () => {
    const issuer = createCoreIssuer({ ...valid(), files: { renderQueue: 0, downloadsPerClub: null } })
    assert.deepStrictEqual(issuer.config.files, { ...DEFAULTS.files, renderQueue: 0, downloadsPerClub: null })
  })

  const misuse: [string, () => unknown][] = [
    ['no options', () => createCoreIssuer(undefined as unknown as IssuerOptions)],
    ['no storage', () => createCoreIssuer({ ...valid(), storage: undefined as never })],
    ['a storage without transaction', () => createCoreIssuer({ ...valid(), storage: {} as never })],
    ['neither keys nor masterKey', () => createCoreIssuer({ ...valid(), masterKey: undefined })],
    ['a master key of 16 bytes', () => createCoreIssuer({ ...valid(), masterKey: new Uint8Array(16) })],
    ['a master key given as a string', () => createCoreIssuer({ ...valid(), masterKey: 'x'.repeat(32) as never })],
    ['no urls', () => createCoreIssuer({ ...valid(), urls: undefined as never })],
    ['a relative base URL', () => createCoreIssuer({ ...valid(), urls: { ...defaultUrls(1), base: '/api' } })],
    ['a share host with a scheme', () => createCoreIssuer({ ...valid(), urls: { ...defaultUrls(1), shareHost: 'http://x' } })],
    ['a club cache of 0', () => createCoreIssuer({ ...valid(), clubCacheSize: 0 })],
    ['a club cache of 1.5', () => createCoreIssuer({ ...valid(), clubCacheSize: 1.5 })],
    ['a club cache given as a string', () => createCoreIssuer({ ...valid(), clubCacheSize: '10' as never })],
    ['a body limit under 1024 bytes', () => createCoreIssuer({ ...valid(), maxBodyBytes: 100 })],
    ['a negative file cache', () => createCoreIssuer({ ...valid(), files: { cacheBytes: -1 } })],
    ['no PDF rendering at all', () => createCoreIssuer({ ...valid(), files: { renderConcurrency: 0 } })],
    ['a download rate of 0 a second', () => createCoreIssuer({ ...valid(), files: { downloadsPerClub: { burst: 10, perSecond: 0 } } })],
    ['a download burst under 1', () => createCoreIssuer({ ...valid(), files: { downloadsPerClub: { burst: 0.5, perSecond: 1 } } })],
  ]
  for (const [what, create] of misuse) {
    it(`throws TypeError at once for ${what}`, () => {
      assert.throws(create, TypeError)
    })
  }
})
