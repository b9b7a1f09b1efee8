/**
 * The CLI and the server with exactly the CLUBCRED_* variables a test gives (runCli and spawnNode set the
 * data dir or start a server that must listen): for a PostgreSQL URL, a master key, and a server that is
 * expected to refuse to start. The CLI runs in this process (test/support/cli.ts), the server as a child.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { cliInProcess, type CliResult } from './cli.ts'
import { ROOT } from './server.ts'

function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') env[name] = value
  return env
}

/** The admin command `...args` with exactly `env`: the exit code and stdout parsed as JSON. Never rejects on a non-zero exit code. */
export function cliWithEnv(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return cliInProcess(env, args)
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
