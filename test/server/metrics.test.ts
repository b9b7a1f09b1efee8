/**
 * `/metrics` of the real server process, read with an independent parser of the Prometheus
 * text format: behind `CLUBCRED_METRICS_TOKEN` on the main port, without a token on
 * `CLUBCRED_METRICS_PORT` (127.0.0.1 only), absent when neither is set; the counters move with an issue
 * call (its Data Integrity proofs by path too), and HTTP series are labelled by route template, never by
 * the raw path.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { tempDir } from '../support/temp-sqlite.ts'
import { demoToken, eventually, issueToDemo } from '../support/issuing-process.ts'

const TOKEN = 'metrics-token-for-the-test-0123456789'

const family = (families: ParsedFamily[], name: string) => families.find((f) => f.name === name)
/** The value of the one sample of `name` whose labels include `labels`, or undefined. */
function valueOf(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = family(families, name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
  return sample?.value === undefined ? undefined : Number(sample.value)
}

describe('metrics of the server process', { timeout: 120_000 }, () => {
  const dir = tempDir()
  let node: NodeProcess
  let lastText = ''
  before(async () => {
    node = await spawnNode({ CLUBCRED_DATA_DIR: dir.path, CLUBCRED_METRICS_TOKEN: TOKEN, CLUBCRED_METRICS_PORT: '0' })
  })
  after(async () => {
    await node?.stop()
    dir.remove()
  })
  const scrape = async () => {
    const response = await node.http('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    assert.equal(response.status, 200, response.text)
    assert.match(response.headers['content-type']!, /^text\/plain; version=0\.0\.4/)
    assert.equal(response.headers['cache-control'], 'no-store')
    lastText = response.text
    return parsePrometheusTextFormat(response.text)
  }

  it('refuses /metrics without the token and with another one: 401 invalid-token', async () => {
    const without = await node.http('/metrics')
    assert.deepEqual([without.status, without.json?.code], [401, 'invalid-token'])
    assert.match(without.headers['www-authenticate'] ?? '', /^Bearer /)
    const wrong = await node.http('/metrics', { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` } })
    assert.deepEqual([wrong.status, wrong.json?.code], [401, 'invalid-token'])
    assert.doesNotMatch(wrong.text, /clubcred_/)
  })

  it('counts an issue call: credentials signed, token issued, HTTP requests by route template, verifications by verdict', async () => {
    const before = await scrape()
    assert.equal(valueOf(before, 'clubcred_credentials_signed_total'), 0)
    assert.ok(family(before, 'process_cpu_user_seconds_total'), "prom-client's process metrics are there")

    const token = await demoToken(node)
    const ids = await issueToDemo(node, token, 3)
    assert.equal(ids.length, 3)
    await eventually('three credentials signed', async () => valueOf(await scrape(), 'clubcred_credentials_signed_total') === 3)
    // Their JSON-LD forms follow, by the fast path (docs/data-integrity.md § Cost); the reference path takes none.
    await eventually('three proofs made', async () => valueOf(await scrape(), 'clubcred_data_integrity_proofs_total', { path: 'fast' }) === 3)
    assert.equal(valueOf(await scrape(), 'clubcred_data_integrity_proofs_total', { path: 'reference' }), undefined)
    assert.equal(valueOf(await scrape(), 'clubcred_credentials_without_proof_total'), 0, 'none settled without a proof')
    const verdict = await node.http(`/open-badges/v3/achievements/${ids[0]}/verify`)
    assert.equal(verdict.status, 200, verdict.text)
    await node.http('/open-badges/v3/achievements/1/verify')

    const families = await scrape()
    assert.equal(valueOf(families, 'clubcred_credentials_signed_total'), 3)
    assert.equal(valueOf(families, 'clubcred_token_requests_total', { outcome: 'issued' }), 1)
    assert.equal(valueOf(families, 'clubcred_verifications_total', { verdict: 'valid' }), 1)
    assert.equal(valueOf(families, 'clubcred_verifications_total', { verdict: 'not-found' }), 1)
    assert.equal(valueOf(families, 'clubcred_signing_queue_depth'), 0)
    assert.equal(valueOf(families, 'clubcred_signing_queue_oldest_age_seconds'), 0)
    const signing = family(families, 'clubcred_signing_duration_seconds')
    assert.equal(signing?.type, 'HISTOGRAM')
    assert.ok(Number(signing!.metrics[0]!.count) >= 1, 'signing latency observed')

    const requests = family(families, 'clubcred_http_requests_total')!
    const issue = requests.metrics.find((m) => m.labels?.method === 'POST' && m.labels.route?.endsWith('/issuances'))
    assert.ok(issue, JSON.stringify(requests.metrics.map((m) => m.labels)))
    assert.equal(issue.labels!.route, '/v2/clubs/{clubDomain}/issuances')
    assert.equal(issue.labels!.status_class, '2xx')
    assert.equal(Number(issue.value), 1)
    const verify = requests.metrics.filter((m) => m.labels?.route === '/open-badges/v3/achievements/{issuanceId}/verify')
    assert.equal(
      verify.reduce((sum, m) => sum + Number(m.value), 0),
      2,
      'both verdicts under one template',
    )
    // No raw path in any label: neither the club's domain nor an issuance id.
    for (const sample of requests.metrics) {
      assert.doesNotMatch(sample.labels!.route!, /\/demo(\/|$)/)
      assert.ok(!ids.some((id) => sample.labels!.route!.includes(String(id))), sample.labels!.route)
    }
    assert.equal(family(families, 'clubcred_http_request_duration_seconds')?.type, 'HISTOGRAM')
    // parse-prometheus-text-format 1.1.1 folds a labelled histogram's series into one, labels dropped:
    // the labelled count is read from the text line itself.
    assert.match(
      lastText,
      /^clubcred_http_request_duration_seconds_count\{method="POST",route="\/v2\/clubs\/\{clubDomain\}\/issuances",status_class="2xx"\} 1$/m,
    )
  })

  it('serves /metrics without a token on the metrics port, on 127.0.0.1, and nothing else there', async () => {
    const url = /clubcred: metrics on (\S+)\n/.exec(node.stderr)?.[1]
    assert.ok(url, node.stderr)
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    const response = await fetch(url)
    assert.equal(response.status, 200)
    const families = parsePrometheusTextFormat(await response.text())
    assert.ok(family(families, 'clubcred_credentials_signed_total'))
    const other = await fetch(new URL('/v2/clubs/demo/', url))
    assert.equal(other.status, 404)
    assert.equal(((await other.json()) as { code: string }).code, 'route-not-found')
  })
})

describe('a server process without a metrics token or port', { timeout: 60_000 }, () => {
  const dir = tempDir()
  let node: NodeProcess
  before(async () => {
    node = await spawnNode({ CLUBCRED_DATA_DIR: dir.path })
  })
  after(async () => {
    await node?.stop()
    dir.remove()
  })

  it('answers /metrics 404, and its probes unauthenticated and uncached', async () => {
    const metrics = await node.http('/metrics')
    assert.deepEqual([metrics.status, metrics.json?.code], [404, 'route-not-found'])
    const health = await node.http('/healthz')
    assert.deepEqual([health.status, health.json, health.headers['cache-control']], [200, { status: 'ok', role: 'all' }, 'no-store'])
    const ready = await node.http('/readyz')
    assert.deepEqual([ready.status, ready.json, ready.headers['cache-control']], [200, { status: 'ready' }, 'no-store'])
  })
})

describe('metrics settings', () => {
  it('a short metrics token or a bad metrics port stops the start with the variable named', async () => {
    const { readServerConfig } = await import('../../server/config.ts')
    assert.throws(() => readServerConfig({ CLUBCRED_METRICS_TOKEN: 'short' }), { name: 'TypeError', message: /CLUBCRED_METRICS_TOKEN/ })
    assert.throws(() => readServerConfig({ CLUBCRED_METRICS_PORT: '70000' }), { name: 'TypeError', message: /CLUBCRED_METRICS_PORT/ })
    assert.throws(() => readServerConfig({ CLUBCRED_READY_MAX_SIGNING_AGE_MS: '0' }), { name: 'TypeError', message: /CLUBCRED_READY_MAX_SIGNING_AGE_MS/ })
    assert.deepEqual(readServerConfig({}).readiness, { maxSigningAgeMs: 300_000 })
    assert.deepEqual(readServerConfig({}).metrics, { token: undefined, port: undefined })
  })
})

describe('a metrics port in use', () => {
  it('stops the start, and the storage wired before it is closed again', async () => {
    const { createServer } = await import('node:net')
    const { existsSync } = await import('node:fs')
    const { join } = await import('node:path')
    const { startNodeServer } = await import('../../server/node.ts')
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const dir = tempDir()
    try {
      const port = String((taken.address() as { port: number }).port)
      await assert.rejects(startNodeServer({ env: { PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dir.path, CLUBCRED_METRICS_PORT: port } }), /EADDRINUSE/)
      assert.ok(existsSync(join(dir.path, 'clubcred.db')), 'the storage was opened')
      // better-sqlite3 checkpoints and removes the WAL file when the last connection closes.
      assert.ok(!existsSync(join(dir.path, 'clubcred.db-wal')), 'and closed again')
    } finally {
      taken.close()
      dir.remove()
    }
  })
})

describe('the Deno server with metrics', { timeout: 120_000 }, () => {
  const dir = tempDir()
  let node: NodeProcess
  before(async () => {
    node = await spawnNode({ CLUBCRED_DATA_DIR: dir.path, CLUBCRED_METRICS_TOKEN: TOKEN, CLUBCRED_METRICS_PORT: '0' }, { runtime: 'deno' })
  })
  after(async () => {
    await node?.stop()
    dir.remove()
  })

  it('serves the same probes and metrics: behind the token, and on its loopback port', async () => {
    assert.deepEqual((await node.http('/readyz')).json, { status: 'ready' })
    assert.equal((await node.http('/metrics')).status, 401)
    const token = await demoToken(node)
    await issueToDemo(node, token, 1)
    const scrape = async () => {
      const response = await node.http('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
      assert.equal(response.status, 200, response.text)
      return parsePrometheusTextFormat(response.text)
    }
    await eventually('one credential signed on Deno', async () => valueOf(await scrape(), 'clubcred_credentials_signed_total') === 1)
    // The start-up lines of `npm start`, in the same order.
    assert.match(node.stderr, /^clubcred: metrics on \S+\nclubcred: role all\nclubcred listening on /m, node.stderr)
    const url = /clubcred: metrics on (\S+)\n/.exec(node.stderr)?.[1]
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, node.stderr)
    const families = parsePrometheusTextFormat(await (await fetch(url!)).text())
    assert.equal(valueOf(families, 'clubcred_credentials_signed_total'), 1)
  })
})
