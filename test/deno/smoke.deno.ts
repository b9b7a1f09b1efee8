/**
 * The Deno server end to end (docs/architecture.md § Layers): `server/deno.ts` as a child process on a free
 * port and a fresh data dir, driven over HTTP as an integrator would: the demo client's token, a template,
 * one issuance, its credential (followed on the event feed), the public verdict, and its JSON log on
 * stdout (pino on Deno: a line per request with its id, no secret or recipient). The child runs
 * without FFI, so a native module (better-sqlite3) anywhere in its import graph fails the start.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { request, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { Json as ParsedJson } from '../support/json.ts'
import { call, startDenoServer, type Json } from '../support/deno-server.ts'

const CLUB = 'demo'

/**
 * A GET of `url` (on `{club}.{share host}`) sent to the server's own address with `url`'s Host header, as
 * a browser on the share host sends it: Deno's fetch resolves no `*.localhost` name and sets Host itself.
 */
function onShareHost(serverUrl: string, url: URL): Promise<{ status: number; headers: IncomingHttpHeaders; body: Uint8Array }> {
  const { hostname, port } = new URL(serverUrl)
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path: url.pathname, headers: { host: url.host } }, (response) => {
      const chunks: Uint8Array[] = []
      response.on('data', (chunk: Uint8Array) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: new Uint8Array(Buffer.concat(chunks)) }))
      response.on('error', reject)
    })
    sent.on('error', reject)
    sent.end()
  })
}

function expectStatus(response: Json, status: number, what: string): ParsedJson {
  assert.equal(response.status, status, `${what} answered ${response.status}: ${response.text}`)
  return response.body
}

describe('the Deno server', () => {
  it('issues a credential that its public verifier finds valid: token, template, issue, event, verify', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clubcred-deno-server-'))
    const server = await startDenoServer(dataDir)
    try {
      const id = /client_id:\s+(\S+)/.exec(server.stderr)?.[1]
      const secret = /client_secret:\s+(\S+)/.exec(server.stderr)?.[1]
      assert.ok(id && secret, `a first start prints the demo client; stderr:\n${server.stderr}`)

      const token = expectStatus(
        await call(`${server.url}/oauth/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${btoa(`${id}:${secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
        }),
        200,
        'token',
      ).access_token as string
      const api = (method: string, path: string, body?: unknown) =>
        call(`${server.url}/v2/clubs/${CLUB}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })

      const templateId = expectStatus(
        await api('POST', '/achievements', { name: 'Deno smoke', description: 'Ran on Deno.', tag: ['deno'] }),
        201,
        'template create',
      ).data.id as number

      const issued = expectStatus(
        await api('POST', '/issuances', {
          achievementFormId: templateId,
          mode: 'none',
          recipients: [{ externalUserId: 'member-0', name: 'Ada Deno', email: 'ada@members.example' }],
        }),
        200,
        'issue',
      )
      assert.equal(issued.summary.ok, 1, JSON.stringify(issued))
      const issuanceId = String(issued.results[0].resourceId)

      // The worker signs in the background: follow the event feed until the credential is there.
      const deadline = Date.now() + 30_000
      for (;;) {
        const events = expectStatus(await api('GET', '/events?limit=100'), 200, 'events').data as { type: string; subject: { id: string } }[]
        if (events.some((event) => event.type === 'issuance.credential_issued' && event.subject.id === issuanceId)) break
        assert.ok(Date.now() < deadline, `no issuance.credential_issued for ${issuanceId} within 30 s: ${JSON.stringify(events)}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }

      const verdict = expectStatus(await call(`${server.url}/open-badges/v3/achievements/${issuanceId}/verify`), 200, 'verify')
      assert.equal(verdict.isValid, true, JSON.stringify(verdict))

      // The share page names its card, and the Deno server draws it (resvg's wasm build: docs/share-card.md § Runtimes).
      const shareUrl = new URL(expectStatus(await api('GET', `/issuances/${issuanceId}`), 200, 'issuance').data.credential.shareUrl as string)
      const page = await onShareHost(server.url, shareUrl)
      assert.equal(page.status, 200)
      assert.ok(new TextDecoder().decode(page.body).includes(`<meta property="og:image" content="${shareUrl.href}/card.png">`), 'the page names its card')
      const card = await onShareHost(server.url, new URL(`${shareUrl.href}/card.png`))
      assert.equal(card.status, 200)
      assert.equal(card.headers['content-type'], 'image/png')
      const ihdr = new DataView(card.body.buffer, card.body.byteOffset, card.body.byteLength)
      assert.deepEqual([ihdr.getUint32(16), ihdr.getUint32(20)], [1200, 630], 'a 1200×630 PNG')

      // The log, through pino on Deno: a JSON line per request, with the id of its answer, and no secret or recipient.
      const probe = await fetch(`${server.url}/v2/nowhere`, { headers: { 'x-request-id': 'deno-probe-1' } })
      assert.equal((await probe.json()).requestId, 'deno-probe-1')
      assert.equal(probe.headers.get('x-request-id'), 'deno-probe-1')
      const stopped = await server.stop()
      assert.equal(stopped, 0)
      const lines = server.log
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
      const probed = lines.filter((line) => line.msg === 'request' && line.requestId === 'deno-probe-1')
      assert.deepEqual(
        probed.map(({ route, path, status }) => ({ route, path, status })),
        [{ route: null, path: '/v2/*', status: 404 }],
        server.log,
      )
      assert.ok(lines.filter((line) => line.msg === 'request').length >= 6, 'a line per request')
      // After the listening line, nothing but the log's JSON lines, the shutdown's included (docs/logs.md).
      assert.equal(server.stderr.split(/^clubcred listening on \S+\n/m)[1], '', 'nothing on stderr after the listening line')
      assert.ok(
        lines.every((line) => typeof line.level === 'string' && typeof line.msg === 'string'),
        'a level and a msg on every line',
      )
      assert.deepEqual(lines.at(-1), { ...lines.at(-1), level: 'info', msg: 'shut down' }, 'the last line')
      for (const leaked of [secret, token, 'ada@members.example', 'Ada Deno']) assert.ok(!server.log.includes(leaked), 'no secret in the log')
    } finally {
      const code = await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
      assert.equal(code, 0, `SIGTERM ends the Deno server with exit code 0; stderr:\n${server.stderr}`)
    }
  })
})
