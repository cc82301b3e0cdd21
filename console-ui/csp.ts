/** The page's style nonce (lib/console/assets.ts), for CodeMirror's `<style>` element. */
import { EditorView } from '@codemirror/view';
import type { Extension } from '@codemirror/state';

export function cspNonce(): Extension {
  const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
  return EditorView.cspNonce.of(nonce);
}
