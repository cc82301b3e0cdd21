/** A read-only CodeMirror view of a document: highlighted, folded, XML or JSON. */
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, lineNumbers, keymap } from '@codemirror/view';
import { defaultHighlightStyle, foldGutter, foldKeymap, syntaxHighlighting, bracketMatching } from '@codemirror/language';
import { xml } from '@codemirror/lang-xml';
import { json } from '@codemirror/lang-json';
import { cspNonce } from './csp';

export type ViewLanguage = 'xml' | 'json' | 'text';

export function documentView(parent: HTMLElement, text: string, language: ViewLanguage): EditorView {
  const extensions: Extension[] = [
    cspNonce(),
    lineNumbers(),
    foldGutter(),
    bracketMatching(),
    syntaxHighlighting(defaultHighlightStyle),
    keymap.of(foldKeymap),
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': 'Document' }),
  ];
  if (language === 'xml') extensions.push(xml());
  if (language === 'json') extensions.push(json());
  return new EditorView({ parent, state: EditorState.create({ doc: text, extensions }) });
}
