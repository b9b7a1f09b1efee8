/**
 * The standalone server on Node: `npm start`. Reads the environment (docs/decisions.md, Addresses), opens
 * `./data`, creates the demo club on first start and serves every surface on one port.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import { pathToFileURL } from 'node:url'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from '../adapters/node/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner } from '../adapters/node/signer.ts'
import { createWebhookTransport } from '../adapters/node/webhook-transport.ts'
import { handlerFor, startServing } from './start.ts'
import { readServerConfig, resolveUrls, type ServerRole } from './config.ts'
import { wireIssuer } from './wire.ts'
import { guardAgainstDriverDefects } from './process-guard.ts'
import { finishIssuer, handleShutdownSignals, putBackHeld, within, type ShutdownOutcome } from './shutdown.ts'
import type { Clock } from '../core/ports/clock.ts'
import type { Issuer } from '../index.ts'

export interface RunningServer {
  url: string
  role: ServerRole
  /** `CLUBCRED_SHUTDOWN_TIMEOUT_MS` as read at start. */
  shutdownTimeoutMs: number
  issuer: Issuer
  server: Server
  /**
   * The graceful shutdown (docs/shutdown.md): stop listening, answer the requests in flight (each with
   * `Connection: close`), let the worker store its round, close storage; bounded by
   * `CLUBCRED_SHUTDOWN_TIMEOUT_MS`. Idempotent.
   */
  close(): Promise<ShutdownOutcome>
}

/** Starts the server; with `PORT=0` it listens on a free port and its URLs follow that port. */
export async function startNodeServer({ env = process.env, clock }: { env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<RunningServer> {
  const config = readServerConfig(env)
  let listener: ReturnType<typeof toNodeListener> | undefined
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
      listener!(req, res)
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

  let closing: Promise<ShutdownOutcome> | undefined
  async function shutdown(): Promise<ShutdownOutcome> {
    const deadline = Date.now() + config.shutdownTimeoutMs
    draining = true
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    // Busy keep-alive connections close after their current response, idle ones at once.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
    server.closeIdleConnections()
    // The worker stops claiming now and stores what it holds while the requests finish.
    const worker = issuer.worker.stop()
    if (!(await within(deadline - Date.now(), closed))) {
      server.closeAllConnections()
      await putBackHeld(issuer, log)
      return 'timed-out'
    }
    return finishIssuer(issuer, worker, deadline, log)
  }

  return {
    url,
    role: config.role,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    issuer,
    server,
    close: () => (closing ??= shutdown()),
  }
}

const log = (line: string) => process.stderr.write(`${line}\n`)

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  guardAgainstDriverDefects((line) => process.stderr.write(`${line}\n`))
  const running = await startNodeServer().catch((error: unknown) => {
    // A configuration or storage error at start is one line for the operator, not a stack trace.
    process.stderr.write(`clubcred: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
  handleShutdownSignals({
    listen: (signal, handler) => process.on(signal, handler),
    shutdown: () => running.close(),
    timeoutMs: running.shutdownTimeoutMs,
    exit: (code) => process.exit(code),
    log,
  })
  // After the handlers: whoever waits for this line may signal at once.
  process.stderr.write(`clubcred: role ${running.role}\nclubcred listening on ${running.url}\n`)
}
