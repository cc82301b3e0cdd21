/**
 * The HTML preview of a result: sanitize-html keeps formatting elements and drops scripts, event
 * handlers, styles, frames, forms and `javascript:` URLs, so stored markup is shown, never run.
 * (The page's CSP, lib/console/assets.ts, would block an inline script anyway; this is the first
 * wall, not the only one.)
 */
import sanitizeHtml from 'sanitize-html';

export function sanitizedPreview(html: string): HTMLElement {
  const clean = sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'h1', 'h2']),
    allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'title'], '*': ['class', 'lang', 'dir'] },
    // images only from the page's own data (a data: URL); links only to the web or mail
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
  });
  const frame = document.createElement('div');
  frame.className = 'preview';
  frame.innerHTML = clean;
  for (const link of frame.querySelectorAll('a')) {
    link.setAttribute('rel', 'noopener noreferrer nofollow');
    link.setAttribute('target', '_blank');
  }
  return frame;
}
