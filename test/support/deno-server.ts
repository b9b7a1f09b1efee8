/**
 * The Deno server as a child process for the suites of test/deno/: `server/deno.ts` on a free port and a
 * given data dir, run without FFI (a native module anywhere in its import graph fails the start), and
 * the admin CLI run on Deno against the same data dir.
 */
import { fileURLToPath } from 'node:url'
import type { Json as ParsedJson } from './json.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface Json {
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
export async function startDenoServer(dataDir: string) {
  const env = inheritedEnv()
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

export async function call(url: string, init: RequestInit = {}): Promise<Json> {
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

/** Runs `server/cli.ts` on Deno (node:sqlite, no FFI) against `dataDir`; its one JSON object, or a failure with its output. */
export async function denoCli(dataDir: string, ...args: string[]): Promise<ParsedJson> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '--allow-all', '--deny-ffi', 'server/cli.ts', ...args],
    cwd: ROOT,
    env: { ...inheritedEnv(), CLUBCRED_DATA_DIR: dataDir, NO_COLOR: '1' },
    clearEnv: true,
    stdin: 'null',
    stdout: 'piped',
    stderr: 'piped',
  }).spawn()
  const [stdout, stderr, { code }] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.status])
  if (code !== 0) throw new Error(`clubcred ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`)
  return JSON.parse(stdout) as ParsedJson
}

/** This process's environment without the server's own variables, which each child gets explicitly. */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') env[name] = value
  }
  return env
}
