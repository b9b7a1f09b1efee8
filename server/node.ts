/**
 * The standalone server on Node: `npm start`. Reads the environment (docs/decisions.md, Addresses), opens
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
import { wireIssuer } from './wire.ts'
import { guardProcess } from './process-guard.ts'
import { createLogger, maskSecrets, type Logger } from './log.ts'
import { logAnswered } from './log-wiring.ts'
import type { DestinationStream } from 'pino'
import type { Clock } from '../core/ports/clock.ts'
import type { Issuer } from '../index.ts'

export interface RunningServer {
  url: string
  role: ServerRole
  issuer: Issuer
  server: Server
  /** The server's log (docs/logs.md): JSON lines on stdout, or on `logDestination`. */
  logger: Logger
  close(): Promise<void>
}

/**
 * Starts the server; with `PORT=0` it listens on a free port and its URLs follow that port. Its log goes
 * to stdout, or to `logDestination` (a test reads it there).
 */
export async function startNodeServer({
  env = process.env,
  clock,
  logDestination,
}: { env?: NodeJS.ProcessEnv; clock?: Clock; logDestination?: DestinationStream } = {}): Promise<RunningServer> {
  const config = readServerConfig(env)
  const logger = createLogger({ level: config.logLevel, ...(logDestination ? { destination: logDestination } : {}) })
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
      logger,
      ...(clock ? { clock } : {}),
    })
  } catch (error) {
    await new Promise((resolve) => server.close(resolve))
    throw error
  }
  const onResponse = logAnswered(logger)
  listener = toNodeListener(handlerFor(issuer, config.role, onResponse), {
    onError: (error) => logger.error({ err: error }, 'listener failed'),
    // The line quotes the client's Host header: masked like an error message.
    log: (line, { requestId }) => logger.warn({ requestId }, maskSecrets(line)),
    onResponse,
  })
  const url = await startServing(issuer, config.role, urls, config.host, port)
  logger.info({ url, role: config.role }, 'listening')

  return {
    url,
    role: config.role,
    issuer,
    server,
    logger,
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Until the configuration is read, a crash is logged at the default level; then at the configured one.
  let log = createLogger({ level: 'info' })
  guardProcess(() => log)
  const running = await startNodeServer().catch((error: unknown) => {
    // A configuration or storage error at start is one line for the operator, not a stack trace.
    process.stderr.write(`clubcred: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
  log = running.logger
  process.stderr.write(`clubcred: role ${running.role}\nclubcred listening on ${running.url}\n`)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      running.close().then(() => process.exit(0))
      setTimeout(() => process.exit(1), 5000).unref()
    })
  }
}
