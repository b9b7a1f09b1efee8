import { html, type Markup } from './html.ts'
import type { ShareView } from '../../../core/verification/share-view.ts'

/**
 * The share button (docs/share-card.md § Share button): `hidden` until `/share.js` runs and finds the
 * Web Share API or the clipboard, so that a browser without script, or without either, shows no button
 * that does nothing. Both labels are in the page, the script shows the one it will do. A real `<button>`
 * (focusable, Enter and Space), and a live region beside it that says what happened.
 */
export function shareButton(view: ShareView, title: string): Markup {
  return html`<div class="share" data-share data-url="${view.urls.share}" data-title="${title}" hidden>
<button type="button" class="button button--share"><span data-share-label hidden>공유하기 <span lang="en">Share</span></span><span data-copy-label hidden>링크 복사 <span lang="en">Copy link</span></span></button>
<p class="share__status" role="status" aria-live="polite"></p>
</div>`
}

/** The script element of the share button: a file of the share host, as the CSP allows (`script-src 'self'`). */
export const shareScript: Markup = html`<script src="/share.js" defer></script>`
