/**
 * Anonymous views write nothing: a crawler opening share pages, or fetching their wallet offers, must not
 * grow the database (codes are stateless: signed and short-lived). Only a redemption writes, one row,
 * which the worker's purge removes after the code's expiry. Counted on the SQLite file: every table's
 * rows and the size of the database and its WAL.
 */
import assert from 'node:assert/strict'
import { existsSync, statSync } from 'node:fs'
import { afterEach, beforeEach, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { CREDENTIAL_ISSUER, openWalletHarness, walletLinkOf, type WalletHarness } from '../../support/wallet-harness.ts'
import type { Json } from '../../support/json.ts'

const VIEWS = 1000
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code'

let harness: WalletHarness
beforeEach(async () => {
  harness = await openWalletHarness()
})
afterEach(async () => {
  await harness.close()
})

/** Rows of every table, and the bytes of the database file and its WAL. */
function snapshot(dbFile: string): { rows: Record<string, number>; bytes: { db: number; wal: number } } {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true })
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    const rows = Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]))
    const size = (path: string) => (existsSync(path) ? statSync(path).size : 0)
    return { rows, bytes: { db: size(dbFile), wal: size(`${dbFile}-wal`) } }
  } finally {
    db.close()
  }
}

describe('anonymous views and the database', () => {
  it(`${VIEWS} share page views, then ${VIEWS} offer fetches, leave every table and the file size unchanged`, async () => {
    const credential = await harness.issueOne()
    const before = snapshot(harness.dbFile)
    assert.ok(Object.keys(before.rows).length >= 10, `tables found: ${Object.keys(before.rows).join(', ')}`)

    let link = ''
    for (let view = 0; view < VIEWS; view++) {
      const page = await harness.fetch(credential.shareUrl)
      assert.equal(page.status, 200)
      link = walletLinkOf(await page.text())
    }
    assert.deepStrictEqual(snapshot(harness.dbFile), before, `${VIEWS} page views wrote nothing`)

    // What a wallet fetches behind each scan: each answer mints a new code, and none is stored.
    const offerUri = decodeURIComponent(link.slice('openid-credential-offer://?credential_offer_uri='.length))
    const codes = new Set<string>()
    const fetchOffers = async () => {
      for (let fetch = 0; fetch < VIEWS; fetch++) {
        const offer = (await (await harness.fetch(offerUri)).json()) as Json
        codes.add(offer.grants[PRE_AUTHORIZED]['pre-authorized_code'])
      }
    }
    await fetchOffers()
    const afterFirstOffers = snapshot(harness.dbFile)
    // The first code ever signed creates the platform key its HMAC key derives from (once per deployment).
    assert.deepStrictEqual({ ...afterFirstOffers.rows, keys: before.rows.keys }, before.rows, 'no table but keys changed')
    assert.ok(afterFirstOffers.rows.keys! - before.rows.keys! <= 1, 'at most the platform key was created')
    await fetchOffers()
    assert.deepStrictEqual(snapshot(harness.dbFile), afterFirstOffers, `${VIEWS} more offers wrote nothing`)
    assert.equal(codes.size, 2 * VIEWS, 'a fresh code every fetch')

    // One redemption writes one row (its code's jti, in the idempotency store) until the code expires.
    const code = [...codes][0]!
    const token = await harness.fetch(`${CREDENTIAL_ISSUER}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code }).toString(),
    })
    assert.equal(token.status, 200)
    const redeemed = snapshot(harness.dbFile).rows
    assert.deepStrictEqual(redeemed, { ...afterFirstOffers.rows, idempotency_keys: afterFirstOffers.rows.idempotency_keys! + 1 })

    harness.clock.advance(10 * 60 * 1000 + 1000)
    await harness.issuer.worker.runOnce()
    assert.deepStrictEqual(snapshot(harness.dbFile).rows, afterFirstOffers.rows, 'the purge removed the row after the code expired')
  })
})
