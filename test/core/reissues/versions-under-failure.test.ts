import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { claimPending, signClaimed, storeSigned } from '../../../core/signing-queue/sign-pending.ts'
import { DEFAULTS } from '../../../core/config.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'
import type { StoragePort, UnitOfWork, UnitOptions } from '../../../core/ports/storage.ts'

/**
 * A reissue under failure (docs/decisions/0046-reissue.md, crash safety): a job signed twice makes one
 * version, a reissue accepted while its issuance is being signed is not lost, and a unit that fails
 * leaves no reissue half done.
 */

let h: CoreHarness
let templateId: number

beforeEach(async () => {
  h = createCoreHarness({ worker: { onError: () => {} } })
  await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
})
afterEach(async () => {
  await h.close()
})

async function signedIssuance(): Promise<number> {
  const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(1) })
  await h.issuer.worker.drain()
  return (result.results[0] as { resourceId: number }).resourceId
}

async function versionsOf(id: number): Promise<string[]> {
  const credential = (await h.storage.credentials.findByIssuance(id))!
  return [credential.jwt, ...(await h.storage.reissues.listEarlierVersions(credential.id)).map((version) => version.jwt)]
}

const nameIn = (jwt: string) => decodeJwt<{ vc: { credentialSubject: { identifier: unknown } } }>(jwt)

describe('a reissue under failure', { timeout: 20_000 }, () => {
  it('a version job signed twice (its lease ran out) stores one version, with one credential_issued', async () => {
    const id = await signedIssuance()
    h.clock.advance(1000)
    await h.issuer.issuances.reissue('chess', id, { name: 'Renamed' })
    const late = await signClaimed(h.context, await claimPending(h.context, 10))
    assert.equal(late.length, 1)
    h.clock.advance(DEFAULTS.signingLeaseMs + 1)
    await h.issuer.worker.drain()
    await storeSigned(h.context, late)
    assert.equal((await versionsOf(id)).length, 2)
    const events = await h.issuer.events.list('chess', { limit: '100' })
    assert.equal(events.data.filter((event) => event.type === 'issuance.credential_issued').length, 2)
    assert.equal(await h.storage.signingJobs.count(), 0)
  })

  it('a reissue accepted while its issuance is being signed gets its own version once that round is stored', async () => {
    const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(1) })
    const id = (result.results[0] as { resourceId: number }).resourceId
    const inFlight = await signClaimed(h.context, await claimPending(h.context, 10))
    await h.issuer.issuances.reissue('chess', id, { name: 'Corrected while signing' })
    await storeSigned(h.context, inFlight)
    assert.equal(await h.storage.signingJobs.count(), 1, 'the reissue is queued again')
    await h.issuer.worker.drain()
    const versions = await versionsOf(id)
    assert.equal(versions.length, 2)
    assert.ok(nameIn(versions[0]!), 'the newest version is signed')
    assert.equal((await h.storage.issuances.findById('chess', id))!.recipient.name, 'Corrected while signing')
    assert.equal(await h.storage.signingJobs.count(), 0)
  })

  it('a reissue whose unit fails leaves the issuance, the queue and the feed as they were', async () => {
    const id = await signedIssuance()
    const before = await h.storage.issuances.findById('chess', id)
    // The last write of the unit fails, as a crash before the commit would: the whole unit is undone.
    const storage = h.context.storage
    const transaction = storage.transaction
    storage.transaction = <T>(work: (tx: UnitOfWork) => Promise<T>, options?: UnitOptions) =>
      transaction.call<StoragePort, [(tx: UnitOfWork) => Promise<T>, UnitOptions | undefined], Promise<T>>(
        storage,
        (tx) => work({ ...tx, reissues: { ...tx.reissues, insert: () => Promise.reject(new Error('disk full')) } }),
        options,
      )
    try {
      await assert.rejects(h.issuer.issuances.reissue('chess', id, { name: 'Never stored' }), /disk full/)
    } finally {
      storage.transaction = transaction
    }
    assert.deepStrictEqual(await h.storage.issuances.findById('chess', id), before)
    assert.equal(await h.storage.signingJobs.count(), 0)
    const events = await h.issuer.events.list('chess', { limit: '100' })
    assert.equal(events.data.filter((event) => event.type === 'issuance.reissued').length, 0)
  })
})
