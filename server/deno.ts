/**
 * The standalone server on Deno: `deno task start` (or `deno run -A server/deno.ts`). The same server as
 * `server/node.ts` (docs/architecture.md § Layers; docs/decisions/0001-addresses.md): environment, `./data`,
 * the demo club on first start, every surface on one port; `Deno.serve` runs the fetch handler and storage
 * is SQLite on `node:sqlite` (or PostgreSQL with `CLUBCRED_DATABASE_URL`, through the same plain-JavaScript
 * driver as on Node), so Deno never loads better-sqlite3 or any other native module.
 */
import process from 'node:process'
import { nodeSqliteDriver } from '../adapters/sqlite/driver-node-sqlite.ts'
import { createNodeSigner } from '../adapters/node/signer.ts'
import { createWasmShareCardRenderer } from '../adapters/share-card/wasm-renderer.ts'
import { createWebhookTransport } from '../adapters/node/webhook-transport.ts'
import { announceStart, handlerFor, reportingTo, startServing } from './start.ts'
import { createPrometheusMetrics } from '../adapters/metrics/prometheus.ts'
import { createMetricsFetchHandler } from '../adapters/http/metrics-endpoint.ts'
import { readServerConfig, resolveUrls, type ServerRole } from './config.ts'
import { warnOfUnknownVariables } from './environment.ts'
import { wireIssuer } from './wire.ts'
import { noteClientAddress } from '../adapters/http/client-address.ts'
import { createTrustedProxies } from '../adapters/http/trusted-proxies.ts'
import { guardProcess } from './process-guard.ts'
import { createLogger, type Logger } from './log.ts'
import { logAnswered } from './log-wiring.ts'
import { drainable } from './drain.ts'
import { finishIssuer, handleShutdownSignals, putBackHeld, within, type ShutdownOutcome } from './shutdown.ts'
import type { Issuer } from '../index.ts'

/** The part of the `Deno` namespace used here, typed locally so that `tsc` with Node's types checks this file. */
interface DenoRuntime {
  serve(
    options: { port: number; hostname: string; onListen?: (address: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> }
  env: { toObject(): Record<string, string> }
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void
  exit(code: number): never
}

export interface RunningDenoServer {
  url: string
  /** `http://127.0.0.1:<port>/metrics` when `CLUBCRED_METRICS_PORT` is set. */
  metricsUrl: string | undefined
  role: ServerRole
  issuer: Issuer
  /** The server's log (docs/logs.md): JSON lines on stdout, through pino as on Node. */
  logger: Logger
  /** `CLUBCRED_SHUTDOWN_TIMEOUT_MS` as read at start. */
  shutdownTimeoutMs: number
  /**
   * The graceful shutdown (docs/shutdown.md): `Deno.serve` stops listening, answers the requests in flight
   * and closes their connections; the worker stores its round; storage closes. Bounded by
   * `CLUBCRED_SHUTDOWN_TIMEOUT_MS`. Idempotent.
   */
  close(): Promise<ShutdownOutcome>
}

function denoRuntime(): DenoRuntime {
  const deno = (globalThis as { Deno?: DenoRuntime }).Deno
  if (!deno) throw new TypeError('server/deno.ts runs on Deno; on Node, start server/node.ts')
  return deno
}

/** Starts the server; with `PORT=0` it listens on a free port and its URLs follow that port. */
export async function startDenoServer({ env }: { env?: Record<string, string | undefined> } = {}): Promise<RunningDenoServer> {
  const deno = denoRuntime()
  const config = readServerConfig(env ?? deno.env.toObject())
  const logger = createLogger({ level: config.logLevel })
  // Requests that arrive before the issuer is wired (it needs the port for its URLs) wait for it.
  let wired!: (handler: (request: Request) => Promise<Response>) => void
  let startFailed!: (error: unknown) => void
  const ready = new Promise<(request: Request) => Promise<Response>>((resolve, reject) => {
    wired = resolve
    startFailed = reject
  })
  // A failed start with no request waiting is not an unhandled rejection: the start's own error is thrown.
  ready.catch(() => {})
  const trustedProxies = createTrustedProxies(config.trustedProxies)
  const server = deno.serve({ port: config.port, hostname: config.host, onListen: () => {} }, async (request, info) => {
    // The console's per-address login limit reads it (adapters/http/client-address.ts).
    noteClientAddress(request, trustedProxies.clientAddress(info.remoteAddr.hostname, request.headers.get('x-forwarded-for')))
    const handler = await ready.catch(() => null)
    // The start failed: the process exits next with its one `cannot start` line.
    return handler ? handler(request) : new Response(null, { status: 503 })
  })
  const port = server.addr.port
  const urls = resolveUrls(config, port)
  // prom-client is plain JavaScript and loads on Deno too (its process metrics are fewer there).
  const metrics = config.metrics.token !== undefined || config.metrics.port !== undefined ? createPrometheusMetrics() : undefined
  let issuer: Issuer
  let issuerIfWired: Issuer | undefined
  let metricsServer: ReturnType<DenoRuntime['serve']> | undefined
  try {
    // The worker-thread signer runs on Deno's node:worker_threads; it is chosen here, not in wiring.
    issuer = issuerIfWired = await wireIssuer({
      config,
      urls,
      openDriver: nodeSqliteDriver,
      signer: createNodeSigner(),
      webhookTransport: createWebhookTransport(),
      // resvg's wasm build in a Web Worker: the N-API build needs FFI, which the Deno server runs without.
      shareCards: createWasmShareCardRenderer(),
      ...(metrics ? { metrics } : {}),
      logger,
    })
    if (metrics) metrics.readSigningQueue(issuer.health.signingQueue)
    if (metrics && config.metrics.port !== undefined) {
      // On 127.0.0.1 whatever HOST says: only the host itself reaches the untokened metrics (docs/operations-metrics.md).
      metricsServer = deno.serve(
        { port: config.metrics.port, hostname: '127.0.0.1', onListen: () => {} },
        // Its requests are logged and counted like the main port's: a request line and an X-Request-Id each.
        createMetricsFetchHandler(metrics.scrape, issuer.fetch.problemBaseUrl, { onResponse: reportingTo(logAnswered(logger), metrics.observeRequest) }),
      )
    }
  } catch (error) {
    // The requests that waited for the issuer end with the start (503): `shutdown()` waits for them.
    startFailed(error)
    // A metrics port in use fails after the issuer is wired: its storage closes with the listener.
    await server.shutdown()
    await issuerIfWired?.close()
    throw error
  }
  const onResponse = reportingTo(logAnswered(logger), metrics?.observeRequest)
  const drain = drainable(handlerFor(issuer, { config, ...(metrics ? { metrics } : {}), onResponse }), issuer.config.problemBaseUrl, { onResponse })
  wired(drain.handler)
  const url = await startServing(issuer, config.role, urls, config.host, port)
  logger.info({ url, role: config.role }, 'listening')

  let closing: Promise<ShutdownOutcome> | undefined
  async function shutdown(): Promise<ShutdownOutcome> {
    const deadline = Date.now() + config.shutdownTimeoutMs
    // Requests in flight finish first, new ones are answered 503 `shutting-down`; only then does
    // `Deno.serve` stop listening (its shutdown cuts the request bodies still being read: denoland/deno#36809).
    const stopped = drain.begin().then(() => server.shutdown())
    const metricsStopped = metricsServer ? metricsServer.shutdown() : Promise.resolve()
    // The worker stops claiming now and stores what it holds while the requests finish.
    const worker = issuer.worker.stop()
    if (!(await within(deadline - Date.now(), stopped))) {
      // Deno has no way to cut its connections: the exit that follows does.
      await putBackHeld(issuer, logger)
      return 'timed-out'
    }
    await metricsStopped
    return finishIssuer(issuer, worker, deadline, logger)
  }

  return {
    url,
    metricsUrl: metricsServer ? `http://127.0.0.1:${metricsServer.addr.port}/metrics` : undefined,
    role: config.role,
    issuer,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    close: () => (closing ??= shutdown()),
  }
}

if ((import.meta as ImportMeta & { main?: boolean }).main) {
  const deno = denoRuntime()
  // Until the configuration is read, a crash is logged at the default level; then at the configured one.
  let log = createLogger({ level: 'info' })
  guardProcess(() => log)
  warnOfUnknownVariables(deno.env.toObject())
  const running = await startDenoServer().catch((error: unknown) => {
    process.stderr.write(`clubcred: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    return deno.exit(1)
  })
  log = running.logger
  handleShutdownSignals({
    listen: (signal, handler) => deno.addSignalListener(signal, handler),
    shutdown: () => running.close(),
    timeoutMs: running.shutdownTimeoutMs,
    exit: (code) => deno.exit(code),
    log: running.logger,
  })
  // After the handlers: whoever waits for the listening line may signal at once.
  announceStart(running)
}
