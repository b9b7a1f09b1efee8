/**
 * The CLI and the server as child processes with exactly the CLUBCRED_* variables a test gives (runCli
 * and spawnNode set the data dir or start a server that must listen): for a PostgreSQL URL, a master key,
 * and a server that is expected to refuse to start.
 */
import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from './server.ts'
import type { Json } from './json.ts'

function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') env[name] = value
  return env
}

/** `server/cli.ts ...args` with `env`: the exit code and stdout parsed as JSON. Never rejects on a non-zero exit. */
export function cliWithEnv(env: Record<string, string>, ...args: string[]): Promise<{ code: number; json: Json; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'server/cli.ts'), ...args],
      { cwd: ROOT, env: { ...inheritedEnv(), ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error)
        let json: unknown
        try {
          json = JSON.parse(stdout)
        } catch {
          json = undefined
        }
        resolve({ code: error ? (error.code as number) : 0, json, stdout, stderr })
      },
    )
  })
}

/** Starts `server/node.ts` with `env`, expecting it to exit before listening: its exit code and stderr. SIGKILL after 30 s. */
export function startExpectingExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/node.ts')], {
    cwd: ROOT,
    env: { ...inheritedEnv(), PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    }),
  )
}
