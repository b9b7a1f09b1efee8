/**
 * The server with a clock the test controls: `startNodeServer({ clock })`, started as a child process
 * with an IPC channel (see `startClockedServer` in ./server.ts). The clock follows the wall clock plus
 * an offset; the parent moves it with `{ advance: ms }` or `{ set: ms }` and gets `'ok'` back. Prints the
 * same listening line as `server/node.ts`.
 */
import { startNodeServer } from '../../server/node.ts'
import type { Clock } from '../../core/ports/clock.ts'

let offset = 0
let last = 0
const clock: Clock = {
  now() {
    // Never backwards (the Clock port's rule), even when the wall clock steps back.
    last = Math.max(last, Date.now() + offset)
    return last
  },
}

process.on('message', (message: { advance?: number; set?: number }) => {
  if (typeof message.advance === 'number') offset += message.advance
  if (typeof message.set === 'number') offset = message.set - Date.now()
  process.send!('ok')
})
process.on('disconnect', () => process.exit(0))

const running = await startNodeServer({ clock })
process.stderr.write(`clubcred listening on ${running.url}\n`)
process.once('SIGTERM', () => {
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`close failed: ${String(error)}\n`)
      process.exit(1)
    },
  )
  setTimeout(() => process.exit(1), 5000).unref()
})
