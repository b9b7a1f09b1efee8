/**
 * The standalone server on Node: `npm start`, `clubcred serve`. Reads the environment (docs/decisions.md, Addresses), opens
 * `./data`, creates the demo club on first start and serves every surface on one port.
 */
import { createServer, type Server } from 'node:http'
import { pathToFileURL } from 'node:url'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from '../adapters/node/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner } from '../adapters/node/signer.ts'
import { createWebhookTransport } from '../adapters/node/webhook-transport.ts'
import { handlerFor, startServing } from './start.ts'
import { readServerConfig, resolveUrls, type ServerRole } from './config.ts'
import { unknownVariableWarnings } from './environment.ts'
import { wireIssuer } from './wire.ts'
import { guardAgainstDriverDefects } from './process-guard.ts'
import type { Clock } from '../core/ports/clock.ts'
import type { Issuer } from '../index.ts'

export interface RunningServer {
  url: string
  role: ServerRole
  issuer: Issuer
  server: Server
  close(): Promise<void>
}

/** Starts the server; with `PORT=0` it listens on a free port and its URLs follow that port. */
export async function startNodeServer({ env = process.env, clock }: { env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<RunningServer> {
  const config = readServerConfig(env)
  let listener: ReturnType<typeof toNodeListener> | undefined
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections, maxHeadersCount } = config.http
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node enforces both timeouts on this interval (default 30 s): check often enough that a
      // timeout means roughly what it says.
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => listener!(req, res),
  )
  server.keepAliveTimeout = keepAliveTimeoutMs
  server.maxConnections = maxConnections
  server.maxHeadersCount = maxHeadersCount
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, resolve)
  })
  const port = (server.address() as AddressInfo).port
  const urls = resolveUrls(config, port)
  let issuer: Issuer
  try {
    issuer = await wireIssuer({
      config,
      urls,
      openDriver: betterSqlite3Driver,
      signer: createNodeSigner(),
      webhookTransport: createWebhookTransport(),
      ...(clock ? { clock } : {}),
    })
  } catch (error) {
    await new Promise((resolve) => server.close(resolve))
    throw error
  }
  listener = toNodeListener(handlerFor(issuer, config.role))
  const url = await startServing(issuer, config.role, urls, config.host, port)

  return {
    url,
    role: config.role,
    issuer,
    server,
    async close() {
      // Stop accepting, drop idle keep-alive connections now and busy ones after a grace period.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const grace = setTimeout(() => server.closeAllConnections(), 2000)
      await closed
      clearTimeout(grace)
      await issuer.close()
    },
  }
}

/**
 * `npm start` and `clubcred serve`: checks the configuration (every wrong variable named in one line,
 * exit 1), warns of unknown `CLUBCRED_*` variables, starts, and closes on SIGINT or SIGTERM.
 */
export async function serve(): Promise<void> {
  guardAgainstDriverDefects((line) => process.stderr.write(`${line}\n`))
  for (const warning of unknownVariableWarnings(process.env)) process.stderr.write(`clubcred: warning: ${warning}\n`)
  const running = await startNodeServer().catch((error: unknown) => {
    // A configuration or storage error at start is one line for the operator, not a stack trace.
    process.stderr.write(`clubcred: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
  process.stderr.write(`clubcred: role ${running.role}\nclubcred listening on ${running.url}\n`)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      running.close().then(() => process.exit(0))
      setTimeout(() => process.exit(1), 5000).unref()
    })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serve()
