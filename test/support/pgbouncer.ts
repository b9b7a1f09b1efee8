import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import postgres from 'postgres'
import { freePort, postgresUser } from './postgres.ts'

const run = promisify(execFile)

/** The Debian package's binary (`apt-get install pgbouncer`). */
const PGBOUNCER = '/usr/sbin/pgbouncer'

/** A real PgBouncer in a temporary directory, in front of a test PostgreSQL server. */
export interface TestPgBouncer {
  /** The URL of `directUrl`'s database through PgBouncer (same user and database name). */
  pooled(directUrl: string): string
  /** One row per pool (user and database): `SHOW POOLS` of PgBouncer's admin console. */
  pools(): Promise<Record<string, string>[]>
  /** Stops PgBouncer and removes its directory. Idempotent. */
  stop(): Promise<void>
}

export interface PgBouncerSettings {
  /** Server connections per user and database (`default_pool_size`). */
  poolSize: number
  /** `pool_mode`: `transaction` unless a test asks for another. */
  poolMode?: 'session' | 'transaction' | 'statement'
  /** `ignore_startup_parameters`: startup parameters PgBouncer drops instead of refusing the client. */
  ignoreStartupParameters?: string[]
}

/**
 * Starts the Debian PgBouncer on a free loopback port in front of the PostgreSQL server at `serverUrl`
 * (any of its databases, by name, `auth_type = trust`). It refuses to run as root like PostgreSQL, so
 * under uid 0 its dir goes to the `postgres` user and it runs through `runuser`. It runs as a daemon with
 * a pid file; that pid is signalled at stop and at process exit, so a crashed test leaves none behind.
 */
export async function startPgBouncer(
  serverUrl: string,
  { poolSize, poolMode = 'transaction', ignoreStartupParameters = [] }: PgBouncerSettings,
): Promise<TestPgBouncer> {
  if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} not found (install the pgbouncer package)`)
  const server = new URL(serverUrl)
  const root = mkdtempSync(join(tmpdir(), 'clubcred-pgbouncer-'))
  const asRoot = process.getuid?.() === 0
  const port = await freePort()
  const pidFile = join(root, 'pgbouncer.pid')
  const config = join(root, 'pgbouncer.ini')
  // trust still looks the user up in auth_file.
  writeFileSync(join(root, 'userlist.txt'), `"${server.username}" ""\n`)
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${root}`,
      'auth_type = trust',
      `auth_file = ${join(root, 'userlist.txt')}`,
      `admin_users = ${server.username}`,
      `pool_mode = ${poolMode}`,
      `default_pool_size = ${poolSize}`,
      // No reserve: a client waits for one of the `poolSize` connections, so they really are shared.
      'reserve_pool_size = 0',
      'max_client_conn = 200',
      // A test file opens a database per test, and each keeps a pool of server connections: idle ones
      // go after a second, not PgBouncer's 10 minutes, lest they fill PostgreSQL's max_connections.
      'server_idle_timeout = 1',
      `ignore_startup_parameters = ${ignoreStartupParameters.join(',')}`,
      `logfile = ${join(root, 'pgbouncer.log')}`,
      `pidfile = ${pidFile}`,
      '',
    ].join('\n'),
  )
  if (asRoot) {
    const [uid, gid] = postgresUser()
    for (const file of [root, config, join(root, 'userlist.txt')]) chownSync(file, uid, gid)
  }

  let removed = false
  const daemonPid = (): number | undefined => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim()) || undefined
    } catch {
      return undefined
    }
  }
  const onExit = () => {
    const pid = daemonPid()
    if (pid) process.kill(pid, 'SIGTERM')
    rmSync(root, { recursive: true, force: true })
  }
  process.once('exit', onExit)

  try {
    const args = ['-d', '-q', config]
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', PGBOUNCER, ...args])
    else await run(PGBOUNCER, args)
    await listening(port, () => (existsSync(join(root, 'pgbouncer.log')) ? readFileSync(join(root, 'pgbouncer.log'), 'utf8') : ''))
  } catch (error) {
    onExit()
    process.removeListener('exit', onExit)
    throw error
  }

  const url = (database: string) => `postgres://${server.username}@127.0.0.1:${port}/${database}`
  return {
    pooled(directUrl) {
      return url(new URL(directUrl).pathname.slice(1))
    },
    async pools() {
      // The admin console speaks the simple protocol only and has no pg_type to fetch.
      const admin = postgres(url('pgbouncer'), { max: 1, fetch_types: false, onnotice: () => {} })
      try {
        return (await admin.unsafe('SHOW POOLS').simple()) as unknown as Record<string, string>[]
      } finally {
        await admin.end({ timeout: 1 })
      }
    },
    async stop() {
      if (removed) return
      const pid = daemonPid()
      if (pid) {
        process.kill(pid, 'SIGTERM')
        await exited(pid)
      }
      rmSync(root, { recursive: true, force: true })
      removed = true
      process.removeListener('exit', onExit)
    },
  }
}

/** Waits until something accepts connections on `port` (the daemon forks before it listens). */
async function listening(port: number, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => resolve(socket.end() && true))
      socket.once('error', () => resolve(false))
    })
    if (open) return
    if (Date.now() > deadline) throw new Error(`PgBouncer did not listen on ${port} within 10 s:\n${log()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function exited(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
