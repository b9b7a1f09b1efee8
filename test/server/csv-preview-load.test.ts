/**
 * A CSV preview of 16 MiB against the real server process on loopback, measured from outside
 * (docs/admin-console.md § Issuing by CSV): 10,000 rows, every row an error, as an outside security
 * review sent it. While the preview runs, `/healthz` is asked every 50 ms and answers each time in under 500 ms; the
 * server's resident memory, read from /proc, grows by less than 256 MiB; the page is under 2 MiB.
 * @see docs/decisions/0041-csv-preview-kept-server-side.md
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { cliInProcess, dataDirEnv } from '../support/cli.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { freshDataDir, removeDataDir } from '../support/server.ts'
import { templateForm, tokenOf } from '../support/admin-console.ts'
import { MAX_CSV_BYTES } from '../../adapters/admin/issue-csv.ts'

const ORIGIN = 'http://localhost:8787'
const PASSWORD = '긴 비밀번호 correct horse battery'
const MiB = 1024 * 1024

/** The process's resident memory in bytes, from the kernel. */
function residentBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(kib![1]) * 1024
}

describe('a 16 MiB CSV preview on the real server', { skip: process.platform === 'linux' ? false : 'reads /proc' }, () => {
  const dataDir = freshDataDir()
  let node: NodeProcess
  let cookie = ''
  let csrf = ''
  let template = ''

  const post = async (path: string, body: URLSearchParams | FormData) =>
    fetch(node.url + path, { method: 'POST', headers: { origin: ORIGIN, cookie }, body, redirect: 'manual' })

  before(async () => {
    const env = { ...dataDirEnv(dataDir), CLUBCRED_PUBLIC_URL: ORIGIN }
    assert.equal((await cliInProcess(env, ['club', 'create', '--domain', 'chess', '--name', '체스 클럽'])).code, 0)
    const created = await cliInProcess(env, ['admin', 'create', '--club', 'chess', '--email', 'staff@chess.example'])
    node = await spawnNode({ CLUBCRED_DATA_DIR: dataDir, CLUBCRED_PUBLIC_URL: ORIGIN })
    const token = tokenOf((created.json as { setupUrl: string }).setupUrl)
    assert.equal((await post('/admin/setup', new URLSearchParams({ token, password: PASSWORD, confirmation: PASSWORD }))).status, 303)
    const login = await post('/admin/login', new URLSearchParams({ email: 'staff@chess.example', password: PASSWORD }))
    cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
    csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(node.url + '/admin/', { headers: { cookie } })).text())![1]!
    const made = await post('/admin/templates/new', new URLSearchParams({ csrf, ...templateForm({ name: '오프닝', description: 'Openings' }) }))
    template = /\/admin\/templates\/(\d+)/.exec(made.headers.get('location') ?? '')![1]!
  })
  after(async () => {
    await node?.stop()
    removeDataDir(dataDir)
  })

  /**
   * The upload form as a browser posts it, serialized by the platform before anything is measured: this
   * process building a 16 MiB body must not count as the server's delay.
   */
  const uploadOf = async (csv: string) => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ csrf, achievementFormId: template, mode: 'none' })) form.set(name, value)
    form.set('file', new File([csv], 'members.csv', { type: 'text/csv' }))
    const request = new Request(node.url, { method: 'POST', body: form })
    return { type: request.headers.get('content-type')!, body: new Uint8Array(await request.arrayBuffer()) as Uint8Array<ArrayBuffer> }
  }
  const preview = ({ type, body }: { type: string; body: Uint8Array<ArrayBuffer> }) =>
    fetch(node.url + '/admin/issue/csv', { method: 'POST', headers: { origin: ORIGIN, cookie, 'content-type': type }, body, redirect: 'manual' })

  it('keeps /healthz under 500 ms, grows the server by less than 256 MiB, and answers a page under 2 MiB', async () => {
    // 10,000 rows whose names are too long (540 Hangul, 1,620 bytes) and whose e-mails are not addresses.
    const csv = ['externalUserId,name,email', ...Array.from({ length: 10_000 }, (_, i) => `e-${i},${'가'.repeat(540)},bad${i}`)].join('\n')
    const bytes = new TextEncoder().encode(csv).byteLength
    assert.ok(bytes > 16_000_000 && bytes <= MAX_CSV_BYTES, `${bytes} bytes`)
    const upload = await uploadOf(csv)
    // Warm: the same path once with a small file, so that the baseline has the code loaded.
    assert.equal((await preview(await uploadOf(['externalUserId,name,email', 'w-1,김,bad'].join('\n')))).status, 200)
    const pid = node.child.pid!
    const baseline = residentBytes(pid)

    let done = false
    let peak = baseline
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20)
    const health: number[] = []
    const polling = (async () => {
      while (!done) {
        const started = performance.now()
        const answer = await fetch(node.url + '/healthz')
        await answer.arrayBuffer()
        assert.equal(answer.status, 200)
        health.push(performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })()
    const started = performance.now()
    const response = await preview(upload)
    const page = await response.text()
    const took = performance.now() - started
    done = true
    await polling
    clearInterval(sampler)
    peak = Math.max(peak, residentBytes(pid))

    const grew = (peak - baseline) / MiB
    const slowest = Math.max(...health)
    console.log(
      JSON.stringify({
        previewMs: Math.round(took),
        pageBytes: page.length,
        healthz: health.length,
        slowestHealthzMs: Math.round(slowest),
        rssGrowthMiB: Math.round(grew),
      }),
    )
    assert.equal(response.status, 200)
    assert.match(page, /<dd id="csv-rows">10000<\/dd>[^]*<dd id="csv-will-issue">0<\/dd>[^]*<dd id="csv-errors">10000<\/dd>/)
    assert.ok(new TextEncoder().encode(page).byteLength < 2 * MiB, `a page of ${page.length} characters`)
    assert.ok(health.length >= 3, `/healthz asked ${health.length} times while the preview ran ${Math.round(took)} ms`)
    assert.ok(slowest < 500, `/healthz took ${Math.round(slowest)} ms at the slowest`)
    assert.ok(grew < 256, `the server grew by ${Math.round(grew)} MiB`)
  })
})
