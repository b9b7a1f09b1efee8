/**
 * A page driven by the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, typing), checking on every
 * step that focus went somewhere a person can see: each control focused must look different from itself
 * unfocused (its outline or box-shadow), and an outline must stand out from what is behind it (3:1,
 * WCAG 2.2 SC 1.4.11 and 2.4.7).
 */
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { navigate } from './browser.ts'

/**
 * The checks that run in the page, as source text: tsx names the functions it compiles with a helper
 * that exists only in Node, so a function handed to `page.evaluate` may not define functions of its own.
 * A string is also run through the DevTools protocol, outside the console's CSP.
 */
const IN_PAGE = String.raw`window.__focusCheck = (() => {
  const unfocused = new WeakMap()
  const look = (element) => {
    const style = getComputedStyle(element)
    return JSON.stringify([style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow])
  }
  const rgba = (colour) => (colour.match(/[\d.]+/g) || []).map(Number)
  const linear = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
  const focused = () => (document.activeElement && document.activeElement !== document.body ? document.activeElement : null)
  return {
    // How every focusable element looks unfocused, noted before any key is pressed.
    note() {
      if (focused()) throw new Error('noteUnfocusedStyles: ' + focused().tagName + ' is focused already')
      for (const element of document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')) unfocused.set(element, look(element))
    },
    describe() {
      const element = focused()
      if (!element) return 'body'
      const name = element.getAttribute('name')
      const text = (element.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (name ? '[name=' + name + ']' : '') + (text ? ' "' + text + '"' : '')
    },
    matches(selector) {
      return focused() !== null && focused().matches(selector)
    },
    // Why the focus is not visible, or null when it is.
    problem() {
      const element = focused()
      if (!element) return 'focus is on the body: lost, or Tab went past the last control'
      if (!unfocused.has(element)) return 'an element that was not focusable when the page loaded'
      const style = getComputedStyle(element)
      const rect = element.getBoundingClientRect()
      if (rect.width < 2 || rect.height < 2 || style.visibility === 'hidden') return 'not shown (' + rect.width + 'x' + rect.height + ')'
      if (rect.bottom + window.scrollY <= 0 || rect.right + window.scrollX <= 0) return 'off the page (at ' + rect.left + ', ' + rect.top + ')'
      if (look(element) === unfocused.get(element)) return 'looks the same focused and unfocused'
      if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 2) {
        return style.boxShadow !== 'none' ? null : 'no outline of 2px or more, no box-shadow (outline ' + style.outlineStyle + ' ' + style.outlineWidth + ')'
      }
      let background = [255, 255, 255]
      for (let node = element.parentElement; node; node = node.parentElement) {
        const [r, g, b, a = 1] = rgba(getComputedStyle(node).backgroundColor)
        if (a > 0) {
          background = [r, g, b]
          break
        }
      }
      const [lighter, darker] = [luminance(rgba(style.outlineColor)), luminance(background)].sort((x, y) => y - x)
      const ratio = (lighter + 0.05) / (darker + 0.05)
      return ratio >= 3 ? null : 'its outline ' + style.outlineColor + ' contrasts ' + ratio.toFixed(2) + ':1 with the background rgb(' + background.join(', ') + ')'
    },
  }
})()`

const inPage = <T>(page: Page, call: string): Promise<T> => page.evaluate(`window.__focusCheck.${call}`) as Promise<T>
const describeFocused = (page: Page) => inPage<string>(page, 'describe()')

/**
 * Notes how every focusable element of the page looks unfocused. Call it on a freshly loaded page, before
 * any key is pressed; `tabTo` calls it when the page has no notes yet.
 */
export async function noteUnfocusedStyles(page: Page): Promise<void> {
  await page.evaluate(IN_PAGE)
  await inPage(page, 'note()')
}

/**
 * Fails unless the focused element is a control shown on screen whose focus is visible: its outline or
 * box-shadow differs from its unfocused look, and an outline contrasts 3:1 with the background behind it.
 */
export async function assertFocusVisible(page: Page): Promise<void> {
  const problem = await inPage<string | null>(page, 'problem()')
  if (problem !== null) assert.fail(`focus on ${await describeFocused(page)} at ${page.url()}: ${problem}`)
}

/**
 * Presses Tab (or Shift+Tab) until `selector` has the focus, at most `max` times, checking that each
 * element focused on the way shows it; fails with the focus path when the control is never reached.
 */
export async function tabTo(page: Page, selector: string, { backwards = false, max = 60 } = {}): Promise<void> {
  if (!(await page.evaluate('"__focusCheck" in window'))) await noteUnfocusedStyles(page)
  const path: string[] = []
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab')
    path.push(await describeFocused(page))
    const problem = await inPage<string | null>(page, 'problem()')
    if (problem !== null) assert.fail(`focus on ${path.at(-1)} at ${page.url()}: ${problem}; on the way to ${selector}, focus went:\n${path.join('\n')}`)
    if (await inPage<boolean>(page, `matches(${JSON.stringify(selector)})`)) return
  }
  assert.fail(`${selector} was not reached in ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'} at ${page.url()}; focus went:\n${path.join('\n')}`)
}

/** Asserts what has the focus now. */
export async function assertFocused(page: Page, selector: string): Promise<void> {
  assert.ok(
    await inPage<boolean>(page, `matches(${JSON.stringify(selector)})`),
    `${selector} should have the focus at ${page.url()}, ${await describeFocused(page)} has it`,
  )
}

/** Presses ArrowDown on the focused closed select until the option `label` is chosen. */
export async function chooseWithArrows(page: Page, label: string): Promise<void> {
  for (let presses = 0; presses < 50; presses++) {
    const chosen = await page.evaluate('document.activeElement.selectedOptions[0]?.textContent.trim() ?? null')
    if (chosen === label) return
    await page.keyboard.press('ArrowDown')
  }
  assert.fail(`no option ${label} in the focused select`)
}

/** Presses `key` and waits for the page at `url` (`navigate`), then notes the new page's unfocused styles. */
export async function pressAndLoad(page: Page, key: string, url: string | RegExp): Promise<void> {
  await navigate(page, () => page.keyboard.press(key), url)
  await noteUnfocusedStyles(page)
}
