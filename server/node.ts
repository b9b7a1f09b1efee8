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
import { handlerFor, reportingTo, startServing } from './start.ts'
import { createPrometheusMetrics, type PrometheusMetrics } from '../adapters/metrics/prometheus.ts'
import { createMetricsFetchHandler } from '../adapters/http/metrics-endpoint.ts'
import { readServerConfig, resolveUrls, type ServerRole } from './config.ts'
import { unknownVariableWarnings } from './environment.ts'
import { wireIssuer } from './wire.ts'
import { guardProcess } from './process-guard.ts'
import { createLogger, maskSecrets, type Logger } from './log.ts'
import { logAnswered } from './log-wiring.ts'
import type { DestinationStream } from 'pino'
import type { Clock } from '../core/ports/clock.ts'
import type { Issuer } from '../index.ts'

export interface RunningServer {
  url: string
  /** `http://127.0.0.1:<port>/metrics` when `CLUBCRED_METRICS_PORT` is set. */
  metricsUrl: string | undefined
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
  // Only when asked for: the default process metrics start timers and GC observers of their own.
  const metrics = config.metrics.token !== undefined || config.metrics.port !== undefined ? createPrometheusMetrics() : undefined
  let issuer: Issuer
  let metricsServer: Server | undefined
  try {
    issuer = await wireIssuer({
      config,
      urls,
      openDriver: betterSqlite3Driver,
      signer: createNodeSigner(),
      webhookTransport: createWebhookTransport(),
      ...(metrics ? { metrics } : {}),
      logger,
      ...(clock ? { clock } : {}),
    })
    if (metrics) metrics.readSigningQueue(issuer.health.signingQueue)
    if (metrics && config.metrics.port !== undefined) metricsServer = await listenForMetrics(metrics, config.metrics.port, issuer.fetch.problemBaseUrl)
  } catch (error) {
    await new Promise((resolve) => server.close(resolve))
    throw error
  }
  const onResponse = reportingTo(logAnswered(logger), metrics?.observeRequest)
  listener = toNodeListener(handlerFor(issuer, { config, ...(metrics ? { metrics } : {}), onResponse }), {
    onError: (error) => logger.error({ err: error }, 'listener failed'),
    // The line quotes the client's Host header: masked like an error message.
    log: (line, { requestId }) => logger.warn({ requestId }, maskSecrets(line)),
    onResponse,
  })
  const url = await startServing(issuer, config.role, urls, config.host, port)
  const metricsUrl = metricsServer ? `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics` : undefined
  logger.info({ url, role: config.role }, 'listening')

  return {
    url,
    metricsUrl,
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
      if (metricsServer) {
        const metricsClosed = new Promise<void>((resolve) => metricsServer!.close(() => resolve()))
        metricsServer.closeAllConnections()
        await metricsClosed
      }
      await issuer.close()
    },
  }
}

/**
 * `/metrics` without a token on its own port, bound to 127.0.0.1 and never to `HOST`: only the host
 * itself (a local Prometheus agent, or a sidecar) reaches it.
 */
async function listenForMetrics(metrics: PrometheusMetrics, port: number, problemBaseUrl: string): Promise<Server> {
  const server = createServer(toNodeListener(createMetricsFetchHandler(metrics.scrape, problemBaseUrl)))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return server
}

/**
 * `npm start` and `clubcred serve`: checks the configuration (every wrong variable named in one line,
 * exit 1), warns of unknown `CLUBCRED_*` variables, starts, and closes on SIGINT or SIGTERM.
 */
export async function serve(): Promise<void> {
  // Until the configuration is read, a crash is logged at the default level; then at the configured one.
  let log = createLogger({ level: 'info' })
  guardProcess(() => log)
  for (const warning of unknownVariableWarnings(process.env)) process.stderr.write(`clubcred: warning: ${warning}\n`)
  const running = await startNodeServer().catch((error: unknown) => {
    // A configuration or storage error at start is one line for the operator, not a stack trace.
    process.stderr.write(`clubcred: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
  log = running.logger
  process.stderr.write(`clubcred: role ${running.role}\nclubcred listening on ${running.url}\n`)
  if (running.metricsUrl) process.stderr.write(`clubcred: metrics on ${running.metricsUrl}\n`)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      running.close().then(() => process.exit(0))
      setTimeout(() => process.exit(1), 5000).unref()
    })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serve()
