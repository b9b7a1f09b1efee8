/**
 * The admin CLI as the tests run it: `main` of server/cli.ts in this process, with the environment the
 * test gives and its stdout and stderr collected, so that a command costs its work and not a process
 * start. `main` reads nothing else of the process and closes what it opens. What only a real process
 * shows (its exit status, flushing stdout before exiting, several processes racing on one data dir) is
 * tested with `cliProcess`.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { main } from '../../server/cli.ts'
import type { Json } from './json.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface CliResult {
  /** The exit code. */
  code: number
  /** stdout parsed as one JSON value, or `undefined` when it is not JSON. */
  json: Json
  stdout: string
  stderr: string
}

function parsed(stdout: string): Json {
  try {
    return JSON.parse(stdout)
  } catch {
    return undefined
  }
}

/** The last command queued on each SQLite data dir. */
const queues = new Map<string, Promise<unknown>>()

/**
 * `clubcred ...args` in this process with exactly `env` as its environment. Commands on one SQLite data
 * dir run one after another: better-sqlite3 waits for a lock synchronously, so a second connection in
 * this thread would block the very thread that holds the lock (separate processes just wait their turn).
 */
export function cliInProcess(env: Record<string, string>, args: string[]): Promise<CliResult> {
  const dataDir = env.CLUBCRED_DATABASE_URL ? undefined : env.CLUBCRED_DATA_DIR
  if (dataDir === undefined) return run(env, args)
  const result = (queues.get(dataDir) ?? Promise.resolve()).then(() => run(env, args))
  const settled = result.catch(() => undefined)
  queues.set(dataDir, settled)
  void settled.then(() => {
    if (queues.get(dataDir) === settled) queues.delete(dataDir)
  })
  return result
}

async function run(env: Record<string, string>, args: string[]): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const code = await main(args, {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, json: parsed(stdout), stdout, stderr }
}

/**
 * `node --import tsx server/cli.ts ...args` as a child process, with the test's environment minus every
 * CLUBCRED_* variable, plus `env`. Never rejects on a non-zero exit.
 */
export function cliProcess(env: Record<string, string>, args: string[]): Promise<CliResult> {
  const inherited: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') inherited[name] = value
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'server/cli.ts'), ...args],
      { cwd: ROOT, env: { ...inherited, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error)
        resolve({ code: error ? (error.code as number) : 0, json: parsed(stdout), stdout, stderr })
      },
    )
  })
}

/** The environment a command on `dataDir` gets, as a server started by the tests would (port 0 on loopback). */
export function dataDirEnv(dataDir: string): Record<string, string> {
  return { PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dataDir }
}
