/**
 * The Node server listens before it has wired the issuer (its URLs need the port), and wiring waits for
 * the storage: a request that arrives in between, as an orchestrator's first probe does, waits for the
 * issuer, as on Deno (server/deno.ts), instead of reaching a listener that is not there yet (which threw,
 * and the uncaught TypeError ended the process).
 */
import assert from 'node:assert/strict'
import { createServer, type Socket } from 'node:net'
import { describe, it } from 'node:test'
import { request } from 'undici'
import { startNodeServer } from '../../server/node.ts'
import { spawn } from 'node:child_process'
import { freshDataDir, removeDataDir, ROOT } from '../support/server.ts'
import { deno } from '../support/node-process.ts'

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** A "database" that accepts connections and says nothing: a start waits on it until its sockets are destroyed. */
async function silentDatabase() {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => void sockets.add(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `postgres://clubcred@127.0.0.1:${(server.address() as { port: number }).port}/clubcred`,
    sockets,
    goAway() {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a request during start-up', { timeout: 60_000 }, () => {
  it('waits while the storage does not answer yet, and ends with the start when the start fails', async () => {
    // A "database" that accepts connections and says nothing: the start waits on it.
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const dataDir = freshDataDir()
    try {
      const port = await freePort()
      const starting = startNodeServer({
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          CLUBCRED_DATA_DIR: dataDir,
          CLUBCRED_MASTER_KEY: 'a1'.repeat(32),
          CLUBCRED_DATABASE_URL: `postgres://clubcred@127.0.0.1:${(silent.address() as { port: number }).port}/clubcred`,
        },
        logDestination: { write: () => {} },
      })
      const failed = assert.rejects(starting)
      for (const until = Date.now() + 10_000; sockets.size === 0; await new Promise((resolve) => setTimeout(resolve, 5))) {
        assert.ok(Date.now() < until, 'the start connects to the database')
      }
      // The server listens by now; its issuer is not wired while the database is silent.
      const early = request(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-request-id': 'early-1' } })
      const outcome = early.then(
        (response) => `answered ${response.statusCode}`,
        (error: Error) => `failed: ${error.message}`,
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The database goes away: the start fails, and the request that waited for it ends with it.
      for (const socket of sockets) socket.destroy()
      silent.close()
      await failed
      assert.match(await outcome, /^failed: /)
    } finally {
      for (const socket of sockets) socket.destroy()
      silent.close()
      removeDataDir(dataDir)
    }
  })

  it('on Deno: a failed start still ends the process (exit 1) when a request waited for it', async () => {
    const database = await silentDatabase()
    const dataDir = freshDataDir()
    const port = await freePort()
    const inherited: NodeJS.ProcessEnv = {}
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') inherited[name] = value
    const child = spawn(deno(), ['run', '--allow-all', '--deny-ffi', 'server/deno.ts'], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: String(port),
        HOST: '127.0.0.1',
        CLUBCRED_DATA_DIR: dataDir,
        CLUBCRED_MASTER_KEY: 'a1'.repeat(32),
        CLUBCRED_DATABASE_URL: database.url,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      for (const until = Date.now() + 30_000; database.sockets.size === 0; await sleep(10))
        assert.ok(Date.now() < until, `the start connects to the database:\n${stderr}`)
      const outcome = request(`http://127.0.0.1:${port}/healthz`).then(
        async (response) => `answered ${response.statusCode}`,
        (error: Error) => `failed: ${error.message}`,
      )
      await sleep(300)
      database.goAway()
      const code = await Promise.race([exited, sleep(15_000).then(() => 'still running')])
      assert.equal(code, 1, stderr)
      assert.match(stderr, /clubcred: cannot start: /)
      assert.doesNotMatch(await outcome, /answered 200/)
    } finally {
      child.kill('SIGKILL')
      database.goAway()
      removeDataDir(dataDir)
    }
  })
})
