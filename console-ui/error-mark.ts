/**
 * A query error in the editor: its line marked in the gutter (the marker's title is the message)
 * and highlighted, the column selected; cleared by the next edit or run.
 */
import { RangeSet, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, gutter, GutterMarker, type DecorationSet } from '@codemirror/view';

interface QueryErrorMark {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

const setError = StateEffect.define<QueryErrorMark | null>();

class ErrorMarker extends GutterMarker {
  constructor(private readonly message: string) {
    super();
  }
  override eq(other: ErrorMarker): boolean {
    return other.message === this.message;
  }
  override toDOM(): Node {
    const span = document.createElement('span');
    span.className = 'cm-query-error-marker';
    span.title = this.message;
    span.setAttribute('aria-label', `Error: ${this.message}`);
    span.textContent = '●';
    return span;
  }
}

/** Keeps the gutter one marker wide when no line is marked. */
const SPACER = new (class extends GutterMarker {
  override toDOM(): Node {
    return document.createTextNode('●');
  }
})();

const errorField = StateField.define<QueryErrorMark | null>({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setError)) return effect.value;
    return tr.docChanged ? null : value;
  },
});

const lineDecoration = Decoration.line({ class: 'cm-query-error-line' });

export function errorMarks(): Extension {
  return [
    errorField,
    EditorView.decorations.compute([errorField], (state): DecorationSet => {
      const mark = state.field(errorField);
      if (!mark || mark.line > state.doc.lines) return Decoration.none;
      return Decoration.set([lineDecoration.range(state.doc.line(mark.line).from)]);
    }),
    gutter({
      class: 'cm-query-error-gutter',
      markers: (view) => {
        const mark = view.state.field(errorField);
        if (!mark || mark.line > view.state.doc.lines) return RangeSet.empty;
        return RangeSet.of([new ErrorMarker(mark.message).range(view.state.doc.line(mark.line).from)]);
      },
      initialSpacer: () => SPACER,
    }),
  ];
}

/** Marks the error at `line`/`column` (1-based), or clears the mark (null). */
export function markError(view: EditorView, mark: QueryErrorMark | null): void {
  if (mark === null || mark.line < 1 || mark.line > view.state.doc.lines) {
    view.dispatch({ effects: setError.of(null) });
    return;
  }
  const line = view.state.doc.line(mark.line);
  const anchor = Math.min(line.to, line.from + Math.max(0, mark.column - 1));
  view.dispatch({ effects: [setError.of(mark), EditorView.scrollIntoView(anchor)], selection: { anchor } });
}
