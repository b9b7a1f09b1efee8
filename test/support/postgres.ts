import { execFile, execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import postgres from 'postgres'

const run = promisify(execFile)

/** A real PostgreSQL server in a temporary directory, for the tests of one file. */
export interface TestPostgres {
  /** Connection URL of the server's `postgres` database (loopback, trust auth). */
  url: string
  /** The server's log file (auto_explain writes its plans there). */
  logFile: string
  /** Creates an empty database (or a copy of `template`) and returns its URL. */
  newDatabase(options?: { template?: string }): Promise<string>
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>
  /** Stops the server (fast shutdown: connections are cut) while keeping its data. */
  pause(): Promise<void>
  /** Starts the paused server again on the same port and data. */
  resume(): Promise<void>
}

/**
 * Starts PostgreSQL from the OS package (`initdb`, `pg_ctl`) on a free loopback port, its unix socket
 * and data in a fresh temp dir. PostgreSQL refuses to run as root, so under uid 0 (CI, this sandbox) the
 * dir is handed to the `postgres` user and the binaries run through `runuser`. The server is stopped at
 * process exit too, so that a crashed test file leaves no server behind.
 */
export async function startPostgres({
  durable = false,
  settings = {},
}: {
  durable?: boolean
  /** More server settings (`-c name=value`), e.g. `shared_preload_libraries` for a bench. */
  settings?: Record<string, string>
} = {}): Promise<TestPostgres> {
  const bin = findBinDir()
  const root = mkdtempSync(join(tmpdir(), 'clubcred-pg-'))
  const data = join(root, 'data')
  const asRoot = process.getuid?.() === 0
  if (asRoot) chownSync(root, ...postgresUser())
  const exec = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args)
  let port = await serverPort()
  const options = () =>
    [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      // Throwaway data: durability buys nothing here and costs seconds per file. A bench that compares
      // with SQLite (which syncs every commit) asks for `durable`: PostgreSQL's defaults, fsync on.
      ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      '-c max_connections=200',
      ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
    ].join(' ')
  const logFile = join(root, 'server.log')
  const start = () => exec('pg_ctl', ['-D', data, '-l', logFile, '-o', options(), '-w', 'start'])
  const stopServer = (mode: 'fast' | 'immediate') => exec('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop'])

  let running = false
  let removed = false
  const onExit = () => {
    if (running) {
      try {
        const args = ['-D', data, '-m', 'immediate', 'stop']
        if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' })
        else execFileSync(join(bin, 'pg_ctl'), args, { stdio: 'ignore' })
      } catch {
        // Best effort at exit: the dir goes either way.
      }
    }
    if (!removed) rmSync(root, { recursive: true, force: true })
  }
  process.once('exit', onExit)

  try {
    await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C.UTF-8'])
    // A port free when chosen can be taken before the server binds it (by another test file's server or
    // client): such a start fails with "Address already in use" in the log, and another port is tried.
    for (let attempt = 1; ; attempt++) {
      try {
        await start()
        break
      } catch (error) {
        if (attempt === 5 || !portTaken(logFile)) throw error
        port = await serverPort()
      }
    }
    running = true
  } catch (error) {
    onExit()
    process.removeListener('exit', onExit)
    throw error
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  let databases = 0

  return {
    url,
    logFile,
    async newDatabase({ template } = {}) {
      const name = `t${++databases}`
      if (template) await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`)
      else await admin.unsafe(`CREATE DATABASE ${name}`)
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    async pause() {
      await stopServer('fast')
      running = false
    },
    async resume() {
      await start()
      running = true
    },
    async stop() {
      if (removed) return
      await admin.end({ timeout: 1 }).catch(() => {})
      if (running) await stopServer('fast').catch(() => stopServer('immediate'))
      running = false
      rmSync(root, { recursive: true, force: true })
      removed = true
      process.removeListener('exit', onExit)
    },
  }
}

/** `pg_config --bindir` when it is on the PATH, else the highest version under /usr/lib/postgresql. */
export function findBinDir(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim()
    if (existsSync(join(dir, 'initdb'))) return dir
  } catch {
    // Not installed with development files: look where Debian puts the server.
  }
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : []
  for (const version of versions) {
    const dir = `/usr/lib/postgresql/${version}/bin`
    if (existsSync(join(dir, 'initdb'))) return dir
  }
  throw new Error('PostgreSQL server binaries not found (install the postgresql package)')
}

/** The uid and gid of the `postgres` user the Debian package creates: servers run as it under uid 0. */
export function postgresUser(): [number, number] {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
    return [id('-u'), id('-g')]
  } catch (error) {
    throw new Error(`no postgres user to run the server as (running as ${userInfo().username})`, { cause: error })
  }
}

/**
 * A port free on 127.0.0.1 now, below the kernel's ephemeral range (32768 and up on Linux), so that no
 * outgoing connection of the many the other test files make on loopback is given it before the server
 * binds it, as one was once (a port the OS picks for listening comes from that same range).
 */
async function serverPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (await canListen(port)) return port
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

function portTaken(logFile: string): boolean {
  try {
    return /already in use|could not bind/i.test(readFileSync(logFile, 'utf8'))
  } catch {
    return false
  }
}

/** A port free on 127.0.0.1 now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
