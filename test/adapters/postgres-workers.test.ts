/**
 * Issuers on PostgreSQL with their background workers running, as the nodes of a deployment: several
 * workers signing one queue, and a worker that lives through a database outage.
 * @see issue 15
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { StorageUnavailable } from '../../core/errors.ts'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import { recipients } from '../core/issuances/support.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'
import type { StoragePort } from '../../core/ports/storage.ts'

const server = postgresPerFile()
const masterKey = new Uint8Array(32).fill(7)

function nodeOn(storage: StoragePort, onError: (error: unknown) => void = () => {}): Issuer {
  return createIssuer({ storage, masterKey, urls: defaultUrls(8787), worker: { pollMs: 50, batchSize: 40, onError } })
}

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`timed out waiting: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function issued(issuer: Issuer, templateId: number, count: number, prefix: string): Promise<number[]> {
  const { result } = await issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(count, prefix) })
  assert.equal(result.summary.ok, count)
  return result.results.map((item) => (item as { resourceId: number }).resourceId)
}

describe('postgres storage › issuers with running workers', { timeout: 60_000 }, () => {
  it('three workers on one database sign every issuance once: one credential, one event and one status slot each', async () => {
    const first = await server.open()
    const storages = [first.storage, await createPostgresStorage({ url: first.url, poolSize: 4 }), await createPostgresStorage({ url: first.url, poolSize: 4 })]
    const nodes = storages.map((storage) => nodeOn(storage))
    try {
      await nodes[0]!.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await nodes[0]!.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
      for (const node of nodes) node.worker.start()
      const ids = (await Promise.all(nodes.map((node, i) => issued(node, templateId, 80, `node${i}`)))).flat()
      await eventually(async () => (await storages[0]!.signingJobs.count()) === 0, 45_000, 'every job signed')

      const credentials = await storages[1]!.credentials.findByIssuances(ids)
      assert.equal(credentials.length, ids.length)
      const slots = credentials.map((credential) => `${credential.statusListId}/${credential.statusListIndex}`)
      assert.equal(new Set(slots).size, slots.length, 'a status slot was used twice')
      const events = await storages[2]!.events.list('chess', { limit: 10_000, beforeId: null })
      const signedEvents = events.filter((event) => event.type === 'issuance.credential_issued').map((event) => Number(event.subject.id))
      assert.deepStrictEqual(
        [...signedEvents].sort((a, b) => a - b),
        [...ids].sort((a, b) => a - b),
      )
      // Workers racing to open the club's first list may each open one; every credential still names
      // its own list by the right URL: the unnumbered one for the club's first list only.
      const firstListId = (await storages[0]!.statusLists.listByClub('chess'))[0]!.id
      for (const credential of credentials) {
        const payload = JSON.parse(Buffer.from(credential.jwt.split('.')[1]!, 'base64url').toString()) as {
          vc: { credentialStatus: { statusListCredential: string } }
        }
        const expected = credential.statusListId === firstListId ? '/status-lists/revocation' : `/status-lists/revocation/${credential.statusListId}`
        assert.ok(payload.vc.credentialStatus.statusListCredential.endsWith(expected), payload.vc.credentialStatus.statusListCredential)
      }
    } finally {
      await Promise.all(nodes.map((node) => node.close()))
    }
  })

  it('a worker lives through a database outage and signs again when it is back, on the same storage', async () => {
    const { storage } = await server.open()
    const errors: unknown[] = []
    const node = nodeOn(storage, (error) => errors.push(error))
    try {
      await node.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await node.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
      node.worker.start()
      const before = await issued(node, templateId, 5, 'before')
      await eventually(async () => (await storage.credentials.findByIssuances(before)).length === 5, 15_000, 'signed before the outage')

      await server.server().pause()
      try {
        await eventually(async () => errors.some((error) => error instanceof StorageUnavailable), 10_000, 'a worker round failing')
      } finally {
        await server.server().resume()
      }
      // A connection the worker began while the server was still starting fails with 57P03 (a 503 to
      // an API client): the storage answers again on its own, without being reopened.
      await eventually(
        () =>
          storage.clubs.count().then(
            () => true,
            () => false,
          ),
        10_000,
        'the storage answering again',
      )
      const after = await issued(node, templateId, 5, 'after')
      await eventually(async () => (await storage.credentials.findByIssuances(after)).length === 5, 15_000, 'signed after the outage')
    } finally {
      await node.close()
    }
  })
})
