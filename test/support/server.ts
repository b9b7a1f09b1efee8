/**
 * The real server as a child process, and the admin CLI (in this process, test/support/cli.ts), on one
 * data dir. Tests talk to the server over HTTP with undici, as an integrator would.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Agent, request } from 'undici'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { defaultUrls } from '../../core/config.ts'
import { createCoreIssuer } from '../../core/create-core-issuer.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import { loadMasterKey } from '../../server/master-key.ts'
import { cliInProcess, dataDirEnv, type CliResult } from './cli.ts'
import type { Json } from './json.ts'

export type { CliResult } from './cli.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const NODE_ENTRY = join(ROOT, 'server/node.ts')
const CLOCKED_ENTRY = join(ROOT, 'test/support/clocked-server.ts')

/** A fresh data dir under the OS temp dir. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'clubcred-server-'))
}

/** The parent's environment without any CLUBCRED_* or PORT/HOST that would leak into the child. */
function childEnv(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') env[name] = value
  }
  return { ...env, PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dataDir, ...extra }
}

export interface HttpResponse {
  status: number
  headers: Record<string, string>
  text: string
  /** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
  json: Json
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'
  headers?: Record<string, string>
  body?: string
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>`, as printed on the listening line. */
  url: string
  dataDir: string
  /** Everything the server wrote to stderr so far. */
  readonly stderr: string
  /** Everything the server wrote to stdout so far: its JSON log (docs/logs.md). */
  readonly log: string
  /** An HTTP request to `url + path`. */
  http(path: string, options?: RequestOptions): Promise<HttpResponse>
  /** SIGTERM, then the exit code (SIGKILL after 10 s, so `null`). Idempotent. */
  stop(): Promise<number | null>
  /** SIGKILL at once (a crash), resolving when the process is gone. Idempotent, like `stop`. */
  kill(): Promise<void>
}

export interface ClockedServerProcess extends ServerProcess {
  /** Moves the server's clock forward by `ms` (acknowledged over IPC before this resolves). */
  advance(ms: number): Promise<void>
  /** Sets the server's clock to `ms` since the epoch. */
  set(ms: number): Promise<void>
}

export interface StartOptions {
  /** Defaults to a fresh temp dir. */
  dataDir?: string
  env?: Record<string, string>
}

/** Spawns `node --import tsx server/node.ts` and waits for `clubcred listening on <url>`. */
export function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  return launch(NODE_ENTRY, options, false)
}

/** Spawns the clocked test entry (startNodeServer with a clock the test moves over IPC). */
export async function startClockedServer(options: StartOptions = {}): Promise<ClockedServerProcess> {
  return (await launch(CLOCKED_ENTRY, options, true)) as ClockedServerProcess
}

/** Everything `child` writes to stderr, as it arrives. */
export function collectStderr(child: ChildProcess): { text: string } {
  const output = { text: '' }
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => {
    output.text += chunk
  })
  return output
}

/**
 * The URL of `clubcred listening on <url>` once the server child prints it; kills the child and
 * rejects when it does not within 20 s or exits first.
 */
export function listeningUrl(child: ChildProcess, exited: Promise<unknown>, output: { text: string }): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`server did not start within 20 s; stderr:\n${output.text}`)), 20_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    const check = () => {
      const match = /clubcred listening on (\S+)\n/.exec(output.text)
      if (match) {
        clearTimeout(timer)
        child.stderr!.off('data', check)
        resolve(match[1]!)
      }
    }
    child.stderr!.on('data', check)
    void exited.then((code) => fail(new Error(`server exited with ${code} before listening; stderr:\n${output.text}`)))
  })
}

async function launch(entry: string, { dataDir = freshDataDir(), env = {} }: StartOptions, ipc: boolean): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: childEnv(dataDir, env),
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
  // 'close', not 'exit': the last lines a process writes may still be in its pipes when it exits.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  const output = collectStderr(child)
  const url = await listeningUrl(child, exited, output)

  const agent = new Agent({ keepAliveTimeout: 1000 })
  let stopping: Promise<number | null> | undefined

  const handle: ClockedServerProcess = {
    url,
    dataDir,
    get stderr() {
      return output.text
    },
    get log() {
      return log
    },
    async http(path, { method = 'GET', headers = {}, body } = {}) {
      const response = await request(url + path, { method, headers, body, dispatcher: agent })
      const text = await response.body.text()
      const flat: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
      }
      let json: unknown
      try {
        json = text ? JSON.parse(text) : undefined
      } catch {
        json = undefined
      }
      return { status: response.statusCode, headers: flat, text, json }
    },
    stop() {
      stopping ??= (async () => {
        await agent.close()
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        const code = await exited
        clearTimeout(killer)
        return code
      })()
      return stopping
    },
    kill() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await agent.close()
        return exited
      })()
      return stopping.then(() => undefined)
    },
    advance: (ms) => tell(child, { advance: ms }),
    set: (ms) => tell(child, { set: ms }),
  }
  return handle
}

function tell(child: ChildProcess, message: { advance: number } | { set: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!child.send) return reject(new Error('not a clocked server'))
    const onMessage = (reply: unknown) => {
      if (reply === 'ok') {
        child.off('message', onMessage)
        resolve()
      }
    }
    child.on('message', onMessage)
    child.send(message, (error) => error && reject(error))
  })
}

/** The server's JSON log lines (docs/logs.md), parsed; a line that is not JSON fails the test. */
export function logLines(server: Pick<ServerProcess, 'log'>): Json[] {
  return server.log
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** A log line as parsed: pino's fields and the line's own. */
export interface LogLine {
  level: string
  msg: string
  [field: string]: unknown
}

/**
 * What a log collector reads of a server process after its listening line (docs/logs.md § Where it goes):
 * the rest of stderr and all of stdout. Asserts that each line is one JSON object with a `level` and a
 * `msg`, and returns them parsed, stderr's first. Call it once the process has exited.
 */
export function linesAfterListening(server: { stderr: string; log: string }): LogLine[] {
  const parts = server.stderr.split(/^clubcred listening on \S+\n/m)
  assert.equal(parts.length, 2, `one listening line on stderr:\n${server.stderr}`)
  const lines = [...parts[1]!.split('\n'), ...server.log.split('\n')].filter((line) => line !== '')
  return lines.map((line) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      assert.fail(`a line after the listening line is not JSON: ${line}`)
    }
    const fields = parsed as Partial<LogLine> | null
    assert.ok(fields !== null && typeof fields === 'object' && typeof fields.level === 'string' && typeof fields.msg === 'string', `no level or msg: ${line}`)
    return fields as LogLine
  })
}

/** The log lines at level error or fatal: a request that ended in a 500, a failed worker round, a crash. */
export function errorLines(server: Pick<ServerProcess, 'log'>): Json[] {
  return logLines(server).filter((line) => line.level === 'error' || line.level === 'fatal')
}

/** Removes a data dir made by `freshDataDir`. */
export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true })
}

/** Runs the admin command `...args` on `dataDir`, in this process. Never rejects on a non-zero exit code. */
export function runCli(dataDir: string, ...args: string[]): Promise<CliResult> {
  return cliInProcess(dataDirEnv(dataDir), args)
}

/** `runCli`, asserting success: returns the printed object. */
export async function cli(dataDir: string, ...args: string[]): Promise<Json> {
  const result = await runCli(dataDir, ...args)
  if (result.code !== 0 || result.json === undefined) {
    throw new Error(`cli ${args.join(' ')} failed with ${result.code}:\n${result.stdout}\n${result.stderr}`)
  }
  return result.json
}

/**
 * The admin operations in this process, on the server's data dir: what the CLI does, without paying a
 * JSON round trip, one connection for many calls. For test setup; the CLI itself is tested in
 * test/server/cli.test.ts.
 */
export function openAdmin(dataDir: string): CoreIssuer {
  const storage = createSqliteStorage({ driver: betterSqlite3Driver(join(dataDir, 'clubcred.db')) })
  return createCoreIssuer({ storage, masterKey: loadMasterKey(dataDir, undefined), urls: defaultUrls(8787) })
}

/** A club and a client of it, made in process with `openAdmin`. */
export async function adminClubAndClient(admin: CoreIssuer, domain: string, scopes?: string[]) {
  await admin.clubs.create({ domain, name: `${domain} club` })
  return admin.clients.create({ club: domain, ...(scopes ? { scopes } : {}) })
}

/** A club and a client of it, made with the CLI. */
export async function clubAndClient(dataDir: string, domain: string, scopes?: string): Promise<{ client_id: string; client_secret: string; scopes: string[] }> {
  await cli(dataDir, 'club', 'create', '--domain', domain, '--name', `${domain} club`)
  return cli(dataDir, 'client', 'create', '--club', domain, ...(scopes ? ['--scopes', scopes] : []))
}

/** GET the club root with a bearer token. */
export function clubRoot(server: ServerProcess, club: string, token: string | null, method: 'GET' | 'HEAD' = 'GET') {
  return server.http(`/v2/clubs/${club}/`, { method, headers: token === null ? {} : { authorization: `Bearer ${token}` } })
}

/** The demo client a first start prints on stderr, or `null` when it printed none. */
export function demoClientFrom(stderr: string): { client_id: string; client_secret: string } | null {
  const id = /client_id:\s+(\S+)/.exec(stderr)
  const secret = /client_secret:\s+(\S+)/.exec(stderr)
  return id && secret ? { client_id: id[1]!, client_secret: secret[1]! } : null
}
