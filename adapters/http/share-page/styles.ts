import { trusted, type Markup } from './html.ts'

/**
 * The page's only style sheet, inline (CSP `style-src 'unsafe-inline'`, nothing else loads). Fluid up to a
 * card of 40rem, readable on a phone; the font stack names the Korean system fonts of each platform.
 */
const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;padding:1rem .75rem 2.5rem;background:#f2f4f7;color:#1b1f24;line-height:1.6;
font-family:system-ui,-apple-system,BlinkMacSystemFont,"Apple SD Gothic Neo","Malgun Gothic","맑은 고딕","Noto Sans KR","Noto Sans CJK KR","NanumGothic","Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
word-break:keep-all;overflow-wrap:anywhere}
.card{max-width:40rem;margin:0 auto;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(16,24,40,.12),0 1px 2px rgba(16,24,40,.06);overflow:hidden}
.card--revoked,.card--invalid{border:4px solid #b3261e}
.card--expired{border:4px solid #b26a00}
.verdict{padding:1rem 1.25rem;display:flex;gap:.75rem;align-items:flex-start}
.verdict__icon{flex:none;width:2rem;height:2rem;border-radius:50%;display:grid;place-items:center;font-weight:700;font-size:1.1rem;line-height:1}
.verdict__title{margin:0;font-size:1.2rem;font-weight:700;line-height:1.35}
.verdict__title span{display:block;font-size:.95rem;font-weight:600;opacity:.9}
.verdict__detail{margin:.25rem 0 0;font-size:.9rem}
.verdict--valid{background:#e7f5ec;color:#0b5d2b;border-bottom:1px solid #b7e0c4}
.verdict--valid .verdict__icon{background:#15803d;color:#fff}
.verdict--revoked,.verdict--invalid{background:#b3261e;color:#fff}
.verdict--revoked .verdict__icon,.verdict--invalid .verdict__icon{background:#fff;color:#b3261e}
.verdict--expired{background:#fff3dc;color:#6b3f00;border-bottom:1px solid #f3d28b}
.verdict--expired .verdict__icon{background:#b26a00;color:#fff}
.body{padding:1.25rem}
.eyebrow{margin:0;color:#5b6472;font-size:.85rem;letter-spacing:.02em}
h1{margin:.25rem 0 0;font-size:1.6rem;line-height:1.3}
.name-en{margin:.15rem 0 0;color:#3d4551;font-size:1.05rem}
h2{margin:1.5rem 0 .5rem;font-size:1rem;color:#1b1f24}
h2 span{color:#5b6472;font-weight:500;font-size:.9rem;margin-left:.35rem}
.facts{display:grid;grid-template-columns:minmax(6.5rem,max-content) 1fr;gap:.4rem 1rem;margin:1.25rem 0 0;padding:1rem;background:#f7f8fa;border-radius:10px}
.facts dt{color:#5b6472;font-size:.9rem}
.facts dt span{display:block;font-size:.75rem}
.facts dd{margin:0;font-weight:600}
.facts ul{margin:0;padding:0;list-style:none}
.verified{display:inline-block;margin-left:.35rem;padding:0 .45rem;border-radius:999px;background:#e0edff;color:#1849a9;font-size:.75rem;font-weight:600;white-space:nowrap;vertical-align:.1em}
.description{margin:0;white-space:pre-line}
.criteria{margin:0;padding-left:1.5rem}
.criteria li+li{margin-top:.25rem}
.tags{display:flex;flex-wrap:wrap;gap:.4rem;margin:0;padding:0;list-style:none}
.tags li{padding:.15rem .65rem;border-radius:999px;background:#eef1f6;border:1px solid #d9dee7;font-size:.9rem}
.take{margin-top:1.75rem;padding-top:.25rem;border-top:1px solid #e6e9ef}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0 0;padding:0;list-style:none}
.button{display:inline-block;padding:.5rem .9rem;border-radius:8px;border:1px solid #c9d0db;background:#fff;color:#1b1f24;text-decoration:none;font-weight:600;font-size:.95rem}
.button:hover,.button:focus-visible{background:#f2f4f7}
.button--waiting{color:#5b6573;border-style:dashed;font-weight:400}
.button--share{cursor:pointer;font-family:inherit;background:#1b1f24;border-color:#1b1f24;color:#fff}
.button--share:hover,.button--share:focus-visible{background:#3d4551}
.share{margin:.5rem 0 .75rem}
.share__status{margin:.35rem 0 0;min-height:1.2em;font-size:.9rem;color:#0b5d2b}
.button--linkedin{background:#0a66c2;border-color:#0a66c2;color:#fff}
.button--linkedin:hover,.button--linkedin:focus-visible{background:#004182}
.verify label{display:block;margin:.75rem 0 .25rem;font-size:.9rem;color:#5b6472}
.verify input{width:100%;padding:.5rem .6rem;border:1px solid #c9d0db;border-radius:8px;font:inherit;font-size:.85rem;background:#f7f8fa;color:#1b1f24}
.verify a{display:inline-block;margin-top:.35rem;font-size:.9rem;color:#1849a9}
.wallet{margin-top:1.75rem;padding:1rem;border-radius:10px;background:#f0f5ff;border:1px solid #c7d7fe}
.wallet h2{margin-top:0}
.wallet__hint{margin:0;font-size:.9rem;color:#3d4551}
.wallet__offer{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-top:.75rem}
.wallet__qr{margin:0;display:flex;gap:1rem;align-items:center}
.wallet__qr img{width:8.5rem;height:8.5rem;flex:none;border:1px solid #e6e9ef;border-radius:8px;background:#fff}
.wallet__qr figcaption{font-size:.85rem;color:#5b6472}
.button--wallet{background:#1849a9;border-color:#1849a9;color:#fff}
.button--wallet:hover,.button--wallet:focus-visible{background:#123a87}
.qr{margin:1rem 0 0;display:flex;gap:1rem;align-items:center}
.qr img{width:8.5rem;height:8.5rem;flex:none;border:1px solid #e6e9ef;border-radius:8px;background:#fff}
.qr figcaption{font-size:.85rem;color:#5b6472}
footer{padding:1rem 1.25rem;border-top:1px solid #e6e9ef;color:#5b6472;font-size:.8rem}
footer p{margin:0}
.not-found{padding:2rem 1.25rem;text-align:center}
:focus-visible{outline:3px solid #1849a9;outline-offset:2px}
@media (max-width:30rem){body{padding:0 0 2rem}.card{border-radius:0;box-shadow:none}.facts{grid-template-columns:1fr;gap:0}.facts dd{margin-bottom:.5rem}.qr,.wallet__qr{flex-direction:column;align-items:flex-start}}
@media print{body{background:#fff;padding:0}.card{box-shadow:none}.take,.wallet{display:none}}
`

export const styles: Markup = trusted(CSS.trim())
