/**
 * Share cards (docs/share-card.md): what one card costs, and how much of it holds the event loop. Cards
 * of `count` different names (Hangul and Latin, the built-in badge nested as SVG) are drawn one after
 * the other through the Node renderer (`createShareCardRenderer`, resvg on libuv's threads), then the
 * same SVGs drawn inline on the main thread (`new Resvg(svg).render().asPng()`), which is what the
 * renderer avoids. The event loop's share is `performance.eventLoopUtilization()` over the run (active
 * time on the main thread per card) and, for the renderer, its longest stall from `monitorEventLoopDelay`
 * (the machine's own scheduling included). Prints one JSON line.
 *
 *   npx tsx bench/share-card.bench.ts [--count 20]
 */
import { fileURLToPath } from 'node:url'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { Resvg } from '@resvg/resvg-js'
import { createShareCardRenderer } from '../adapters/share-card/index.ts'
import { PRETENDARD_FACES } from '../adapters/share-card/fonts.ts'
import { shareCardSvg } from '../core/share-cards/card-svg.ts'
import { benchSettings } from './settings.ts'

const { count: COUNT } = benchSettings({ count: 20 })
const WARM_UP = 2

const svgs = Array.from({ length: COUNT + WARM_UP }, (_, index) =>
  shareCardSvg({ achievementName: `체스 입문 ${index + 1}단계 · Chess step ${index + 1}`, clubName: `서울 체스 클럽 ${index + 1}`, badge: null }),
)

/** Per-card wall times (ms), main-thread active ms per card, and the longest event-loop stall (ms). */
async function run(draw: (svg: string) => Promise<Uint8Array>) {
  for (const svg of svgs.slice(0, WARM_UP)) await draw(svg)
  const delay = monitorEventLoopDelay({ resolution: 1 })
  const times: number[] = []
  const start = performance.eventLoopUtilization()
  delay.enable()
  for (const svg of svgs.slice(WARM_UP)) {
    const began = performance.now()
    await draw(svg)
    times.push(performance.now() - began)
  }
  delay.disable()
  const used = performance.eventLoopUtilization(start)
  times.sort((a, b) => a - b)
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!)
  return { p50Ms: at(0.5), p95Ms: at(0.95), mainThreadMsPerCard: round(used.active / COUNT), longestStallMs: round(delay.max / 1e6) }
}

const round = (value: number) => Math.round(value * 10) / 10

const renderer = createShareCardRenderer()
const offThread = await run((svg) => renderer.renderPng(svg))
const fontFiles = PRETENDARD_FACES.map((face) => fileURLToPath(face))
// Inline, a card holds the loop its whole time: the delay histogram, which samples only when the loop turns, has nothing to say.
const { longestStallMs: _unsampled, ...inline } = await run(
  async (svg) => new Uint8Array(new Resvg(svg, { font: { loadSystemFonts: false, fontFiles, defaultFontFamily: 'Pretendard' } }).render().asPng()),
)
const bytes = (await renderer.renderPng(svgs[0]!)).length

console.log(JSON.stringify({ bench: 'share-card', count: COUNT, pngBytes: bytes, renderer: offThread, inlineOnMainThread: inline }))
