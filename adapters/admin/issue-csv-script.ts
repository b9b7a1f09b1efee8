/**
 * The console's one script, served as a file at `/admin/issue-csv.js` (`script-src 'self'`): on a CSV
 * upload's progress page it polls the JSON the bar names and moves the bar, instead of the page
 * refreshing itself (which it does without script). It stops when the upload is done or the JSON fails.
 */
export const ISSUE_CSV_SCRIPT = `
'use strict'
;(() => {
  const bar = document.getElementById('csv-progress')
  if (!bar || !bar.dataset.progressUrl || bar.dataset.done === 'true') return
  const text = document.getElementById('csv-progress-text')
  const working = document.getElementById('csv-progress-status')
  const finished = document.getElementById('csv-progress-done')
  const poll = async () => {
    try {
      const response = await fetch(bar.dataset.progressUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      if (!response.ok) return
      const progress = await response.json()
      bar.max = Math.max(progress.issued, 1)
      bar.value = progress.issued === 0 ? 1 : progress.signed
      bar.textContent = text.textContent = progress.signed + ' / ' + progress.issued
      if (progress.done) {
        bar.dataset.done = 'true'
        working.hidden = true
        finished.hidden = false
        return
      }
    } catch {
      return
    }
    setTimeout(poll, 1000)
  }
  setTimeout(poll, 1000)
})()
`.trim()
