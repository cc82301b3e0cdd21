// The module references of a source file, read with the TypeScript compiler's parser, and their
// resolution to repository files the way TypeScript resolves a relative specifier (`./x`,
// `./x.js`, `./x/index`, a folder with an index.ts), for the re-layout tool (relayout.js).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

/** Calls whose first string argument names a module: require, import(), and jest's module API. */
const MODULE_CALLS = new Set([
  'require', 'require.resolve', 'jest.mock', 'jest.doMock', 'jest.unmock', 'jest.dontMock', 'jest.requireActual',
  'jest.requireMock', 'jest.createMockFromModule', 'jest.setMock',
]);

function calleeName(expression) {
  if (expression.kind === ts.SyntaxKind.ImportKeyword) return 'import';
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    return `${expression.expression.text}.${expression.name.text}`;
  }
  return undefined;
}

function scriptKind(file) {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.ts')) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

/**
 * Every module specifier of `text`: `{ text, start, end, typeOnly, kind }`, `start`/`end` the
 * offsets of the specifier's characters (inside its quotes). `typeOnly`: an `import type`,
 * `export type`, or an import whose every binding is a type import (erased from the JavaScript).
 */
function specifiersOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found = [];
  const add = (literal, typeOnly, kind) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    found.push({ text: literal.text, start: literal.getStart(source) + 1, end: literal.getEnd() - 1, typeOnly, kind });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allTypes = clause !== undefined && (clause.isTypeOnly ||
        (!clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, allTypes, 'import');
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly, 'export');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly, 'import');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true, 'import-type');
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const name = calleeName(node.expression);
      if (name !== undefined && (name === 'import' || MODULE_CALLS.has(name))) add(node.arguments[0], false, name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'];

/**
 * The repository-relative file a relative specifier of `from` names, or undefined (a package, or
 * nothing). `isFile(rel)` answers whether a repository-relative path is a file.
 */
function resolveSpecifier(from, specifier, isFile) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const tries = [];
  // TypeScript maps a `.js`/`.mjs`/`.cjs` specifier onto the `.ts`/`.mts`/`.cts` source first
  const js = /\.(m|c)?js$/.exec(base);
  if (js) tries.push(base.slice(0, -js[0].length) + `.${js[1] ?? ''}ts`);
  tries.push(base);
  for (const ext of SOURCE_EXTENSIONS) tries.push(base + ext);
  for (const ext of SOURCE_EXTENSIONS) tries.push(`${base}/index${ext}`);
  return tries.find((candidate) => isFile(candidate));
}

/** A relative specifier from `from` to the repository file `target`, in the style of `original`. */
function specifierFor(from, target, original) {
  let rel = path.posix.relative(path.posix.dirname(from), target);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const named = path.posix.basename(original);
  const originalExt = /\.(ts|tsx|js|mjs|cjs|json)$/.exec(named)?.[0];
  const targetExt = /(\.d)?\.(ts|tsx|js|mjs|cjs|json)$/.exec(target)?.[0] ?? '';
  // a folder import (`./translate`) stays one when the folder's index.ts is what it names
  const folderImport = !originalExt && /\/index\.[a-z]+$/.test(target) && !/(^|\/)index$/.test(original);
  if (folderImport) return rel.replace(/\/index\.[a-z.]+$/, '');
  if (!originalExt) return rel.slice(0, rel.length - targetExt.length);
  if (originalExt === '.js' && /\.tsx?$/.test(targetExt)) return rel.slice(0, rel.length - targetExt.length) + '.js';
  return rel;
}

/** Files under `folder` (repository-relative, posix), skipping dependency and output folders. */
function filesUnder(root, folder, into = []) {
  const full = path.join(root, folder);
  if (!fs.existsSync(full)) return into;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.git') continue;
    const rel = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) filesUnder(root, rel, into);
    else if (entry.isFile()) into.push(rel);
  }
  return into.sort();
}

module.exports = { specifiersOf, resolveSpecifier, specifierFor, filesUnder };
