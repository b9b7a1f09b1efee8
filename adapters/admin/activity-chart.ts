import { html, type Markup } from '../http/share-page/html.ts'
import type { WeeklyActivity } from '../../core/admins/activity.ts'
import { both, type Words } from './pages.ts'

/** The chart's series: its words and its colour (each distinct in hue and lightness, so greyscale tells them apart too). */
const SERIES: { key: 'issued' | 'claimed' | 'expiring'; words: Words; colour: string }[] = [
  { key: 'issued', words: { ko: '발급', en: 'Issued' }, colour: '#1d4ed8' },
  { key: 'claimed', words: { ko: '지갑에 담음', en: 'Taken into a wallet' }, colour: '#15803d' },
  { key: 'expiring', words: { ko: '만료', en: 'Expiring' }, colour: '#b45309' },
]

const WIDTH = 640
const HEIGHT = 220
const LEFT = 36
const BOTTOM = 28
const TOP = 12

/**
 * Issued, taken into a wallet and expiring per week as a bar chart the server draws (docs/admin-console.md
 * § Overview): inline SVG, no script; `role="img"` with a title and description, and the same numbers in
 * a table beside it for screen readers and for anyone who wants the figures.
 */
export function activityChart(weekly: WeeklyActivity): Markup {
  const max = Math.max(1, ...weekly.issued, ...weekly.claimed, ...weekly.expiring)
  const plotHeight = HEIGHT - TOP - BOTTOM
  const groupWidth = (WIDTH - LEFT) / weekly.weeks.length
  const barWidth = Math.max(2, Math.floor((groupWidth - 8) / SERIES.length))
  const y = (value: number) => TOP + plotHeight - Math.round((value / max) * plotHeight)
  const bars = weekly.weeks.flatMap((week, i) =>
    SERIES.map(({ key, words, colour }, s) => {
      const value = weekly[key][i]!
      const x = LEFT + i * groupWidth + 4 + s * barWidth
      return html`<rect x="${String(x)}" y="${String(y(value))}" width="${String(barWidth - 1)}" height="${String(TOP + plotHeight - y(value))}" fill="${colour}"><title>${week} · ${words.ko} ${words.en}: ${String(value)}</title></rect>`
    }),
  )
  const labels = weekly.weeks.map(
    (week, i) =>
      html`<text x="${String(LEFT + i * groupWidth + groupWidth / 2)}" y="${String(HEIGHT - 8)}" text-anchor="middle" font-size="11" fill="#374151">${week.slice(5)}</text>`,
  )
  const totals = SERIES.map(({ key, words }) => `${words.en} ${weekly[key].reduce((sum, n) => sum + n, 0)}`).join(', ')
  return html`<section class="card" aria-labelledby="weekly-heading">
<h2 id="weekly-heading">${both({ ko: '주별 활동', en: 'Activity by week' })}</h2>
<ul class="legend">
${SERIES.map(({ words, colour }) => html`<li><svg width="12" height="12" aria-hidden="true" focusable="false"><rect width="12" height="12" fill="${colour}"/></svg> ${both(words)}</li>`)}
</ul>
<svg class="chart" viewBox="0 0 ${String(WIDTH)} ${String(HEIGHT)}" role="img" aria-labelledby="weekly-title weekly-desc" focusable="false">
<title id="weekly-title">주별 발급, 지갑에 담음, 만료 · Issued, taken into a wallet and expiring by week</title>
<desc id="weekly-desc">${weekly.weeks[0]} – ${weekly.weeks.at(-1)}: ${totals}. The table below holds every figure.</desc>
<line x1="${String(LEFT)}" y1="${String(TOP + plotHeight)}" x2="${String(WIDTH)}" y2="${String(TOP + plotHeight)}" stroke="#9ca3af"/>
<text x="${String(LEFT - 6)}" y="${String(TOP + 10)}" text-anchor="end" font-size="11" fill="#374151">${String(max)}</text>
<text x="${String(LEFT - 6)}" y="${String(TOP + plotHeight)}" text-anchor="end" font-size="11" fill="#374151">0</text>
${bars}
${labels}
</svg>
<table id="weekly-table">
<caption>${both({ ko: '주별 숫자 (월요일 시작, UTC)', en: 'Figures by week (from Monday, UTC)' })}</caption>
<thead><tr><th scope="col">${both({ ko: '주', en: 'Week' })}</th>${SERIES.map(({ words }) => html`<th scope="col">${both(words)}</th>`)}</tr></thead>
<tbody>
${weekly.weeks.map((week, i) => html`<tr><th scope="row"><time datetime="${week}">${week}</time></th>${SERIES.map(({ key }) => html`<td>${String(weekly[key][i]!)}</td>`)}</tr>`)}
</tbody>
</table>
</section>`
}
