import type { IncomingMessage } from 'node:http'

/**
 * How much of a body the handler left unread is read and dropped before answering, so that the
 * keep-alive connection stays usable (the next request starts after the body). More, or slower, and
 * the answer says `Connection: close` instead. 4 MiB is four times the default body limit: a client
 * that overshoots it a little keeps its connection; one that declares a gigabyte does not make the
 * server read it.
 */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024
export const DRAIN_MAX_MS = 5_000

export interface RequestBody {
  stream: ReadableStream<Uint8Array>
  /** Bytes handed to the stream so far. */
  received(): number
  /** Stops feeding the stream; the rest of the body is left to `settleUnreadBody`. */
  detach(): void
}

/** An event listener as node:stream takes it. */
type Listener = Parameters<IncomingMessage['on']>[1]

/**
 * The request body as a web stream, read on demand. Unlike `Readable.toWeb`, cancelling it does not
 * destroy the request: IncomingMessage.destroy resets the socket, so a handler that stops reading a
 * body too large (413) would never get its answer to the client.
 */
export function requestBody(req: IncomingMessage): RequestBody {
  let received = 0
  let attached = false
  let settled = false
  const listeners: { event: string; listener: Listener }[] = []
  const detach = () => {
    for (const { event, listener } of listeners) req.off(event, listener)
    listeners.length = 0
    req.pause()
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!attached) {
          attached = true
          const on = (event: string, listener: Listener) => {
            listeners.push({ event, listener })
            req.on(event, listener)
          }
          on('data', (chunk: Uint8Array) => {
            received += chunk.byteLength
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
            if ((controller.desiredSize ?? 0) <= 0) req.pause()
          })
          on('end', () => {
            if (!settled) controller.close()
            settled = true
          })
          on('error', (error: unknown) => {
            if (!settled) controller.error(error)
            settled = true
          })
        }
        req.resume()
      },
      cancel() {
        settled = true
        detach()
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, received: () => received, detach: () => attached && detach() }
}

/**
 * Settles a request body nobody read to its end: reads and drops up to `DRAIN_MAX_BYTES` within
 * `DRAIN_MAX_MS`. Returns whether the body is now fully read (the connection may be kept); when not,
 * whatever arrives is still dropped until the socket closes, so the kernel has no unread data to
 * answer with a reset.
 */
export function settleUnreadBody(req: IncomingMessage, received: number): Promise<boolean> {
  if (req.complete) return Promise.resolve(true)
  const declared = Number(req.headers['content-length'])
  if (Number.isSafeInteger(declared) && declared - received > DRAIN_MAX_BYTES) {
    discard(req)
    return Promise.resolve(false)
  }
  return new Promise((resolve) => {
    let drained = 0
    let done = false
    const finish = (complete: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      if (!complete) discard(req)
      resolve(complete)
    }
    const onData = (chunk: Uint8Array) => {
      drained += chunk.byteLength
      if (drained > DRAIN_MAX_BYTES) finish(false)
    }
    const onEnd = () => finish(true)
    const onClose = () => finish(req.complete)
    const timer = setTimeout(() => finish(false), DRAIN_MAX_MS)
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('close', onClose)
    req.on('error', () => finish(false))
    req.resume()
  })
}

function discard(req: IncomingMessage): void {
  req.on('data', () => {})
  req.on('error', () => {})
  req.resume()
}
