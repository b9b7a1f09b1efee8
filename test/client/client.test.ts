/**
 * clubcred/client against the real server process: 50 recipients issued, every credential awaited
 * on the event feed, every page iterated, one revoked, with a token that expires mid-run and is refreshed.
 * The server runs on the clocked entry, and the test moves its clock and the client's together.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { createClubcredClient } from '../../client/index.ts'
import { ROOT, clubAndClient, demoClientFrom, removeDataDir, startClockedServer, type ClockedServerProcess } from '../support/server.ts'

interface Exchange {
  method: string
  path: string
  status: number
}

let server: ClockedServerProcess
before(async () => {
  server = await startClockedServer()
})
after(async () => {
  await server.stop()
  removeDataDir(server.dataDir)
})

describe('clubcred/client against the real server', () => {
  it('issues 50, waits for all 50 credentials via events, sees each exactly once over every page, revokes one, and refreshes its token when both clocks pass its expiry', async () => {
    const demo = demoClientFrom(server.stderr)
    assert.ok(demo, 'the first start printed the demo client')

    // The client's clock and the server's move together: wall time plus the same offset.
    let offset = 0
    const clock = () => Date.now() + offset
    const advanceBoth = async (ms: number) => {
      // The server first: a token fetched in between would otherwise be born already expired.
      await server.advance(ms)
      offset += ms
    }

    const exchanges: Exchange[] = []
    const client = createClubcredClient({
      baseUrl: server.url,
      clientId: demo.client_id,
      clientSecret: demo.client_secret,
      club: 'demo',
      clock,
      fetch: async (request) => {
        const url = new URL(request.url)
        const response = await fetch(request)
        exchanges.push({ method: request.method, path: url.pathname + url.search, status: response.status })
        return response
      },
    })
    const tokenRequests = () => exchanges.filter((exchange) => exchange.path === '/oauth/token').length

    const root = await client.club()
    assert.equal(root.domain, 'demo')
    assert.equal(root.canIssue, true)

    const template = await client.achievements.create({
      name: 'Endgame study',
      description: 'Worked through fifty classic endgames.',
      tag: ['endgames', 'study'],
      criteria: { requirements: [{ type: 'course_complete', description: 'Finish the endgame course' }] },
    })
    assert.equal(template.achievementType, 'CertificateOfCompletion')

    const recipients = Array.from({ length: 50 }, (_, i) => ({ externalUserId: `member-${i}`, name: `Member ${i}`, email: `member.${i}@demo.example` }))
    const batch = await client.issuances.issue({ achievementFormId: template.id, recipients })
    assert.deepStrictEqual(batch.summary, { total: 50, ok: 50, skipped: 0, failed: 0 })
    assert.equal(batch.replayed, false)
    assert.match(batch.idempotencyKey, /^[0-9a-f-]{36}$/, 'an automatic Idempotency-Key')
    const ids = batch.results.map((item) => (item.status === 'issued' ? item.resourceId : assert.fail(`${item.ref} was ${item.status}`)))

    const credentials = await client.waitForCredentials(ids, { timeoutMs: 60_000, pollMs: 100 })
    assert.equal(credentials.length, 50)
    assert.equal(new Set(credentials.map((credential) => credential.id)).size, 50, 'fifty distinct credentials')
    for (const credential of credentials) {
      assert.equal(credential.format, 'OB3_VC_JWT')
      assert.equal(credential.jwt.split('.').length, 3)
      assert.equal(credential.payload.jti, `urn:uuid:${credential.id}`)
    }
    const credentialReads = exchanges.filter((exchange) => exchange.path.endsWith('/credential'))
    assert.equal(credentialReads.length, 50, 'each credential read once, after its event: the credential operation is never polled')
    assert.ok(
      exchanges.some((exchange) => exchange.path.startsWith('/v2/clubs/demo/events?limit=100')),
      'the wait read the event feed',
    )
    assert.equal(tokenRequests(), 1, 'one token so far')

    // Every page of the issuances of this template, 20 at a time; the token expires after the first page.
    const seen: number[] = []
    for await (const issuance of client.issuances.all({ achievementId: template.id, pageSize: 20 })) {
      seen.push(issuance.id)
      assert.notEqual(issuance.credentialId, null, `issuance ${issuance.id} has its credential`)
      if (seen.length === 20) await advanceBoth(901_000)
    }
    assert.equal(seen.length, 50)
    assert.deepStrictEqual(new Set(seen), new Set(ids), 'all 50, each exactly once')
    const pageReads = exchanges.filter((exchange) => exchange.path.startsWith('/v2/clubs/demo/issuances?'))
    assert.equal(pageReads.length, 3, '20 + 20 + 10')
    assert.ok(pageReads.every((exchange) => exchange.path.includes('limit=20')))
    assert.equal(tokenRequests(), 2, 'the client fetched a second token when the first ran out')

    const revokedId = ids[7]!
    const revoked = await client.issuances.revoke(revokedId, { reason: 'Left the club' })
    assert.equal(revoked.status, 'revoked')
    assert.equal(revoked.revocationReason, 'Left the club')
    assert.equal(revoked.credential?.status, 'revoked')
    assert.equal((await client.issuances.get(revokedId)).status, 'revoked')
    const verdict = await client.verify(revokedId)
    assert.equal(verdict.status, 'revoked')
    assert.equal(verdict.isValid, true, 'the signature still holds; the status says revoked')
    assert.equal((await client.verify(ids[8]!)).status, 'valid')

    const pdf = await client.issuances.file(ids[0]!, { format: 'pdf' })
    assert.equal(pdf.contentType, 'application/pdf')
    assert.equal(new TextDecoder().decode(pdf.bytes.subarray(0, 5)), '%PDF-')

    const types = new Map<string, number>()
    for await (const event of client.events.all({ pageSize: 40 })) types.set(event.type, (types.get(event.type) ?? 0) + 1)
    assert.deepStrictEqual(Object.fromEntries(types), { 'issuance.issued': 50, 'issuance.credential_issued': 50, 'issuance.revoked': 1 })

    assert.equal(tokenRequests(), 2, 'still two tokens: the refreshed one lasted')
    assert.deepStrictEqual(
      exchanges.filter((exchange) => exchange.status >= 400),
      [],
      'no call failed: the token was refreshed before the server would refuse it, never after a 401',
    )
  })

  it('the @example of createClubcredClient runs as written', async () => {
    const source = readFileSync(join(ROOT, 'client/create-client.ts'), 'utf8')
    const doc = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\nexport function createClubcredClient/.exec(source)![1]!
    const example = doc
      .slice(doc.indexOf('@example') + '@example'.length)
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n')
      .replace("'clubcred/client'", `'${join(ROOT, 'client/index.ts')}'`)
      .replace("'http://localhost:8787'", `'${server.url}'`)
    const client = await clubAndClient(server.dataDir, 'example')
    const dir = mkdtempSync(join(tmpdir(), 'clubcred-client-example-'))
    try {
      writeFileSync(join(dir, 'example.mts'), example.replace("club: 'demo'", "club: 'example'"))
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(dir, 'example.mts')], {
        cwd: ROOT,
        env: { ...process.env, CLUBCRED_CLIENT_ID: client.client_id, CLUBCRED_CLIENT_SECRET: client.client_secret },
        timeout: 30_000,
      })
      assert.match(stdout.trim(), /^\d+$/, 'it printed the one issuance id')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
