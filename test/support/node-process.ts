/**
 * `npm start` as a child process a test can SIGKILL, with the environment it chooses (role, database
 * URL, master key): the multi-node and outage tests run several of these on one database.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { request } from 'undici'
import { ROOT, type HttpResponse } from './server.ts'

export interface NodeProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote to stderr so far. */
  readonly stderr: string
  /** Everything the process wrote to stdout so far: its JSON log (docs/logs.md). */
  readonly log: string
  /** Resolves once the process has exited and its stdout and stderr are read to their end. */
  readonly closed: Promise<void>
  http(path: string, options?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<HttpResponse>
  /** SIGKILL: no shutdown, no cleanup, as a crash or a lost machine. */
  kill(): Promise<void>
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>
}

/**
 * The Deno the project tests with (not a dependency: its lockfile entry breaks `npm ci`), by its own path,
 * so that a signal reaches Deno itself rather than the npx in front of it.
 */
let denoPath: string | undefined
export function deno(): string {
  denoPath ??= execFileSync('npx', ['-y', 'deno@2.9.6', 'eval', 'console.log(Deno.execPath())'], { encoding: 'utf8' }).trim()
  return denoPath
}

/**
 * Starts `server/node.ts` (or, with `runtime: 'deno'`, `server/deno.ts` on Deno without FFI, so that no
 * native module can load) with only `env` of the CLUBCRED_* variables: none leak from the test's environment.
 */
export async function spawnNode(env: Record<string, string>, { runtime = 'node' }: { runtime?: 'node' | 'deno' } = {}): Promise<NodeProcess> {
  const inherited: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') inherited[name] = value
  }
  const [command, ...args] =
    runtime === 'node' ? [process.execPath, '--import', 'tsx', join(ROOT, 'server/node.ts')] : [deno(), 'run', '--allow-all', '--deny-ffi', 'server/deno.ts']
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // 'close', not 'exit': the last lines a process writes may still be in its pipes when it exits.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  let stderr = ''
  let stdout = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => (stderr += chunk))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 60 s:\n${stderr}`)), 60_000)
    const look = () => {
      const match = /clubcred listening on (\S+)\n/.exec(stderr)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stderr!.on('data', look)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`node exited before listening:\n${stderr}`))
    })
  })
  const alive = () => child.exitCode === null && child.signalCode === null
  return {
    url,
    child,
    get stderr() {
      return stderr
    },
    get log() {
      return stdout
    },
    closed: exited,
    async http(path, { method = 'GET', headers = {}, body } = {}) {
      const response = await request(url + path, { method: method as 'GET', headers, body, reset: true }).catch((error: Error) => {
        // A refused or reset connection usually means the process died: say how, with its last words.
        const how = alive() ? 'still running' : `exited (code ${child.exitCode}, signal ${child.signalCode})`
        throw new Error(
          `${method} ${path}: ${error.message}; the process ${how}; its stderr ends:\n${stderr.slice(-3000)}\nits stdout ends:\n${stdout.slice(-4000)}`,
          { cause: error },
        )
      })
      const text = await response.body.text()
      const flat: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') flat[name] = value
      let json: unknown
      try {
        json = text ? JSON.parse(text) : undefined
      } catch {
        json = undefined
      }
      return { status: response.statusCode, headers: flat, text, json }
    },
    async kill() {
      if (alive()) child.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (alive()) child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(killer)
    },
  }
}
