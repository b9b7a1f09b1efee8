/**
 * The Deno server end to end (docs/architecture.md § Layers): `server/deno.ts` as a child process on a free
 * port and a fresh data dir, driven over HTTP as an integrator would: the demo client's token, a template,
 * one issuance, its credential (followed on the event feed), the public verdict, and its JSON log on
 * stdout (pino on Deno: a line per request with its id, no secret or recipient). The child runs
 * without FFI, so a native module (better-sqlite3) anywhere in its import graph fails the start.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { Json as ParsedJson } from '../support/json.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLUB = 'demo'

interface Json {
  status: number
  body: ParsedJson
  text: string
}

/**
 * The part of the `Deno` namespace used here, typed locally so that `tsc` with Node's types checks this
 * file. Deno.Command rather than node:child_process: Deno 2.9's node:child_process reports a child that
 * handled SIGTERM and exited 0 as killed by the signal (`code` null), which would hide the exit code.
 */
interface DenoRuntime {
  execPath(): string
  Command: new (
    command: string,
    options: { args: string[]; cwd: string; env: Record<string, string>; clearEnv: boolean; stdin: 'null'; stdout: 'piped'; stderr: 'piped' },
  ) => {
    spawn(): {
      stdout: ReadableStream<Uint8Array>
      stderr: ReadableStream<Uint8Array>
      status: Promise<{ code: number; signal: string | null }>
      kill(signal: 'SIGTERM' | 'SIGKILL'): void
    }
  }
}
const Deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno

/** Starts `deno run server/deno.ts`; resolves once it printed its listening line. */
async function startDenoServer(dataDir: string) {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') env[name] = value
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '--allow-all', '--deny-ffi', 'server/deno.ts'],
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dataDir, NO_COLOR: '1' },
    clearEnv: true,
    stdin: 'null',
    stdout: 'piped',
    stderr: 'piped',
  }).spawn()
  let exitCode: number | null | undefined
  const exited = child.status.then(({ code, signal }) => (exitCode = signal === null ? code : null))
  let stderr = ''
  let listening!: (url: string) => void
  const url = new Promise<string>((resolve) => (listening = resolve))
  // Read stderr to its end (a full pipe would block the server), watching for the listening line.
  // The JSON log (docs/logs.md): read to its end as well.
  let log = ''
  const logged = (async () => {
    const reader = child.stdout.getReader()
    const decoder = new TextDecoder()
    for (let read = await reader.read(); !read.done; read = await reader.read()) log += decoder.decode(read.value, { stream: true })
  })()
  const drained = (async () => {
    const reader = child.stderr.getReader()
    const decoder = new TextDecoder()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      stderr += decoder.decode(read.value, { stream: true })
      const match = /clubcred listening on (\S+)\n/.exec(stderr)
      if (match) listening(match[1]!)
    }
  })()
  let timer: ReturnType<typeof setTimeout> | undefined
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the Deno server did not start within 60 s; stderr:\n${stderr}`)), 60_000)
    void exited.then(async (code) => {
      await drained
      reject(new Error(`the Deno server exited with ${code} before listening; stderr:\n${stderr}`))
    })
  })
  try {
    await Promise.race([url, failed])
  } catch (error) {
    if (exitCode === undefined) child.kill('SIGKILL')
    throw error
  } finally {
    clearTimeout(timer)
  }
  failed.catch(() => {}) // the server exiting later is stop()'s business
  return {
    url: await url,
    get stderr() {
      return stderr
    },
    get log() {
      return log
    },
    /** SIGTERM, then the exit code (`null` when a signal ended it). */
    async stop(): Promise<number | null> {
      if (exitCode === undefined) child.kill('SIGTERM')
      const killer = setTimeout(() => exitCode === undefined && child.kill('SIGKILL'), 10_000)
      const code = await exited
      clearTimeout(killer)
      await Promise.all([drained, logged])
      return code
    },
  }
}

async function call(url: string, init: RequestInit = {}): Promise<Json> {
  const response = await fetch(url, init)
  const text = await response.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  return { status: response.status, body, text }
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
