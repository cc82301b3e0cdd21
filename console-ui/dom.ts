/**
 * Building the page with the DOM: every text goes in as a text node, never as markup, so nothing
 * a database holds can become an element or a script (the sanitized HTML preview, preview.ts, is
 * the one place that writes markup, and only what sanitize-html let through).
 */
export type Child = Node | string | null | undefined | false;

type Attributes = Record<string, string | boolean | ((event: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, value);
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces the children of `parent`. */
export function fill(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, ...children);
}

/** Human-readable bytes. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Offers `data` as a file download (an object URL, revoked at once after the click). */
export function download(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const link = h('a', { href: url, download: name });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A status line: text, and whether it reports a failure. */
export function note(target: HTMLElement, text: string, failure = false): void {
  target.textContent = text;
  target.classList.toggle('error', failure);
}
