/** A progress bar on stderr when it is a terminal; silent otherwise (logs, pipes, tests). */
export function createProgress(total: number, stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr) {
  const width = 30
  const enabled = Boolean(stream.isTTY) && total > 0
  return {
    update(done: number) {
      if (!enabled) return
      const filled = Math.round((done / total) * width)
      stream.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`)
    },
    finish() {
      if (enabled) stream.write('\n')
    },
  }
}
