/**
 * The standalone server on Node: `npm start`, `clubcred serve`. Reads the environment (docs/decisions/0001-addresses.md), opens
 * `./data`, creates the demo club on first start and serves every surface on one port.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import { pathToFileURL } from 'node:url'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from '../adapters/node/index.ts'
import { createTrustedProxies } from '../adapters/http/trusted-proxies.ts'
import { createNodeSigner } from '../adapters/node/signer.ts'
import { createShareCardRenderer } from '../adapters/share-card/renderer.ts'
import { createWebhookTransport } from '../adapters/node/webhook-transport.ts'
import { announceStart, handlerFor, reportingTo, startServing } from './start.ts'
import { createPrometheusMetrics, type PrometheusMetrics } from '../adapters/metrics/prometheus.ts'
import { createMetricsFetchHandler } from '../adapters/http/metrics-endpoint.ts'
import { readServerConfig, resolveUrls, type ServerRole } from './config.ts'
import { warnOfUnknownVariables } from './environment.ts'
import { wireIssuer } from './wire.ts'
import { guardProcess } from './process-guard.ts'
import { loadDriver } from './load-driver.ts'
import { finishIssuer, handleShutdownSignals, putBackHeld, within, type ShutdownOutcome } from './shutdown.ts'
import { createLogger, type Logger } from './log.ts'
import { logAnswered } from './log-wiring.ts'
import type { DestinationStream } from 'pino'
import type { Clock } from '../core/ports/clock.ts'
import type { Issuer } from '../index.ts'

export interface RunningServer {
  url: string
  /** `http://127.0.0.1:<port>/metrics` when `CLUBCRED_METRICS_PORT` is set. */
  metricsUrl: string | undefined
  role: ServerRole
  /** `CLUBCRED_SHUTDOWN_TIMEOUT_MS` as read at start. */
  shutdownTimeoutMs: number
  issuer: Issuer
  server: Server
  /** The server's log (docs/logs.md): JSON lines on stdout, or on `logDestination`. */
  logger: Logger
  /**
   * The graceful shutdown (docs/shutdown.md): stop listening, answer the requests in flight (each with
   * `Connection: close`), let the worker store its round, close storage; bounded by
   * `CLUBCRED_SHUTDOWN_TIMEOUT_MS`. Idempotent.
   */
  close(): Promise<ShutdownOutcome>
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
  let listener: ReturnType<typeof toNodeListener> | undefined = undefined
  // Requests that arrive before the issuer is wired (it needs the port for its URLs) wait for it, as on Deno.
  let wired!: (listener: ReturnType<typeof toNodeListener>) => void
  const ready = new Promise<ReturnType<typeof toNodeListener>>(
    (resolve) =>
      (wired = (wiredListener) => {
        listener = wiredListener
        resolve(wiredListener)
      }),
  )
  // Responses not yet finished, so that a shutdown can tell each to close its connection after it.
  const inFlight = new Set<ServerResponse>()
  let draining = false
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections, maxHeadersCount } = config.http
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node enforces both timeouts on this interval (default 30 s): check often enough that a
      // timeout means roughly what it says.
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => {
      inFlight.add(res)
      res.once('close', () => inFlight.delete(res))
      // A request that arrives on a kept-alive connection during a drain is still answered, and is its last.
      if (draining) res.setHeader('connection', 'close')
      if (listener) listener(req, res)
      else void ready.then((wiredListener) => wiredListener(req, res))
    },
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
  let issuerIfWired: Issuer | undefined
  let metricsServer: Server | undefined
  try {
    issuer = issuerIfWired = await wireIssuer({
      config,
      urls,
      openDriver: openBetterSqlite3,
      signer: createNodeSigner(),
      webhookTransport: createWebhookTransport(),
      shareCards: createShareCardRenderer(),
      ...(metrics ? { metrics } : {}),
      logger,
      ...(clock ? { clock } : {}),
    })
    if (metrics) metrics.readSigningQueue(issuer.health.signingQueue)
    if (metrics && config.metrics.port !== undefined) metricsServer = await listenForMetrics(metrics, config.metrics.port, issuer.fetch.problemBaseUrl, logger)
  } catch (error) {
    // A metrics port in use fails after the issuer is wired: its storage (a PostgreSQL pool would keep
    // an embedder's process alive) closes with the listener.
    const closed = new Promise((resolve) => server.close(resolve))
    // The requests that waited for the issuer end with the start.
    server.closeAllConnections()
    await closed
    await issuerIfWired?.close()
    throw error
  }
  const onResponse = reportingTo(logAnswered(logger), metrics?.observeRequest)
  const wiredListener = toNodeListener(handlerFor(issuer, { config, ...(metrics ? { metrics } : {}), onResponse }), {
    onError: (error) => logger.error({ err: error }, 'listener failed'),
    // The line quotes the client's Host header, masked by the listener.
    log: (line, { requestId }) => logger.warn({ requestId }, line),
    onResponse,
    trustedProxies: createTrustedProxies(config.trustedProxies),
  })
  wired(wiredListener)
  const url = await startServing(issuer, config.role, urls, config.host, port)
  const metricsUrl = metricsServer ? `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics` : undefined
  logger.info({ url, role: config.role }, 'listening')

  let closing: Promise<ShutdownOutcome> | undefined
  async function shutdown(): Promise<ShutdownOutcome> {
    const deadline = Date.now() + config.shutdownTimeoutMs
    draining = true
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    // Busy keep-alive connections close after their current response, idle ones at once.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
    server.closeIdleConnections()
    // A scrape has nothing to wait for: the metrics port closes at once.
    const metricsClosed = metricsServer ? new Promise<void>((resolve) => metricsServer!.close(() => resolve())) : Promise.resolve()
    metricsServer?.closeAllConnections()
    // The worker stops claiming now and stores what it holds while the requests finish.
    const worker = issuer.worker.stop()
    if (!(await within(deadline - Date.now(), closed))) {
      server.closeAllConnections()
      await putBackHeld(issuer, logger)
      return 'timed-out'
    }
    await metricsClosed
    return finishIssuer(issuer, worker, deadline, logger)
  }

  return {
    url,
    metricsUrl,
    role: config.role,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    issuer,
    server,
    logger,
    close: () => (closing ??= shutdown()),
  }
}

/**
 * Node's SQLite driver, loaded on first use: a server on PostgreSQL never loads better-sqlite3, and one
 * installed without it (`--omit=optional`) stops with one line naming the package.
 */
async function openBetterSqlite3(filename: string) {
  const { betterSqlite3Driver } = await loadDriver('better-sqlite3', () => import('../adapters/sqlite/driver-better-sqlite3.ts'))
  return betterSqlite3Driver(filename)
}

/**
 * `/metrics` without a token on its own port, bound to 127.0.0.1 and never to `HOST`: only the host
 * itself (a local Prometheus agent, or a sidecar) reaches it.
 */
async function listenForMetrics(metrics: PrometheusMetrics, port: number, problemBaseUrl: string, logger: Logger): Promise<Server> {
  // Its requests are logged and counted like the main port's: a request line and an X-Request-Id each.
  const onResponse = reportingTo(logAnswered(logger), metrics.observeRequest)
  const server = createServer(
    toNodeListener(createMetricsFetchHandler(metrics.scrape, problemBaseUrl, { onResponse }), {
      onError: (error) => logger.error({ err: error }, 'listener failed'),
      log: (line, { requestId }) => logger.warn({ requestId }, line),
      onResponse,
    }),
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return server
}

/**
 * `npm start` and `clubcred serve`: checks the configuration (every wrong variable named in one line,
 * exit 1), warns of unknown `CLUBCRED_*` variables, starts, and shuts down gracefully on SIGINT or SIGTERM (docs/shutdown.md).
 */
export async function serve(): Promise<void> {
  // Until the configuration is read, a crash is logged at the default level; then at the configured one.
  let log = createLogger({ level: 'info' })
  guardProcess(() => log)
  warnOfUnknownVariables(process.env)
  const running = await startNodeServer().catch((error: unknown) => {
    // A configuration or storage error at start is one line for the operator, not a stack trace.
    process.stderr.write(`clubcred: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
  log = running.logger
  handleShutdownSignals({
    listen: (signal, handler) => process.on(signal, handler),
    shutdown: () => running.close(),
    timeoutMs: running.shutdownTimeoutMs,
    exit: (code) => process.exit(code),
    log: running.logger,
  })
  // After the handlers: whoever waits for the listening line may signal at once.
  announceStart(running)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serve()
