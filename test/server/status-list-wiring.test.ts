import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { webCryptoSigner } from '../../core/credentials/webcrypto-signer.ts'
import { readServerConfig, resolveUrls } from '../../server/config.ts'
import { wireIssuer } from '../../server/wire.ts'
import { tempDir } from '../support/temp-sqlite.ts'

/**
 * The server wires a Data Integrity signer (docs/data-integrity.md § Status list): its status list answers
 * JSON-LD with a proof to a request that asks for it, the VC-JWT otherwise.
 */
describe("the server's status list", () => {
  it('answers JSON-LD with an eddsa-rdfc-2022 proof to Accept: application/ld+json, and the VC-JWT without', async (t) => {
    const dir = tempDir()
    const config = readServerConfig({ CLUBCRED_DATA_DIR: dir.path })
    const issuer = await wireIssuer({ config, urls: resolveUrls(config, 8787), openDriver: betterSqlite3Driver, signer: webCryptoSigner })
    t.after(async () => {
      await issuer.close()
      dir.remove()
    })
    await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    const template = await issuer.achievements.create('chess', { name: 'Chess basics', description: 'Learned the rules.' })
    await issuer.issuances.issue('chess', { achievementFormId: template.id, mode: 'none', recipients: [{ name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    await issuer.worker.drain()

    const url = `${issuer.config.urls.public}/open-badges/v3/issuers/chess/status-lists/revocation`
    const jsonLd = await issuer.fetch(new Request(url, { headers: { accept: 'application/ld+json' } }))
    assert.equal(jsonLd.status, 200)
    assert.equal(jsonLd.headers.get('content-type'), 'application/ld+json')
    const body = (await jsonLd.json()) as { type: string[]; proof: { cryptosuite: string } }
    assert.deepStrictEqual([body.type, body.proof.cryptosuite], [['VerifiableCredential', 'BitstringStatusListCredential'], 'eddsa-rdfc-2022'])
    const jwt = await issuer.fetch(new Request(url))
    assert.equal(jwt.headers.get('content-type'), 'text/plain; charset=utf-8')
  })
})
