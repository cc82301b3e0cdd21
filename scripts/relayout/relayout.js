#!/usr/bin/env node
// Re-lays out lib/xquery (and its tests in __tests__/xquery) by where code runs and by feature,
// following the rules of rules.js, and rewrites every reference to a moved file: relative
// imports, requires, jest.mock and dynamic imports; paths computed from __dirname or the code
// root; repository paths in strings; file names in comments, in README.md, in docs/ and in the
// Unreleased section of CHANGELOG.md. See README.md beside this file.
//
//   node scripts/relayout/relayout.js            plan, move (git mv) and rewrite
//   node scripts/relayout/relayout.js --dry-run  print the plan only
//
// It stops before touching anything when a file has no rule, two files would land on one path,
// or the working tree has changes.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const ts = require('typescript');
const { specifiersOf, resolveSpecifier, specifierFor, filesUnder } = require('./imports');
const rules = require('./rules');

const ROOT = path.resolve(process.argv.includes('--root') ? process.argv[process.argv.indexOf('--root') + 1] : path.join(__dirname, '..', '..'));
const DRY = process.argv.includes('--dry-run');
const LIB = 'lib/xquery';
const TESTS = '__tests__/xquery';
/** Folders whose code may name a moved file. */
const CODE_FOLDERS = ['lib', '__tests__', 'bench', 'scripts', 'console-ui'];
/** Files of the repository's top that may name a test or source path (configuration). */
const TOP_FILES = ['package.json', 'jest.config.js', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.jest.json'];
const CODE = /\.(ts|tsx|js|mjs|cjs)$/;
/** This tool names the old layout on purpose. */
const SELF = 'scripts/relayout/';

const started = Date.now();
const problems = [];
const warnings = [];

// ---------------------------------------------------------------------------------------------
// The plan: old path → new path, by the rules

/** `pattern` (one `*` per name part) against `rel`: the stars' matches, or undefined. */
function match(pattern, rel) {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+?)');
  const m = new RegExp(`^${source}$`).exec(rel);
  return m ? m.slice(1) : undefined;
}
const fill = (template, stars) => template.replace(/\{(\d)\}/g, (_, i) => stars[Number(i) - 1]);

/** Where lib/xquery/`rel` goes (relative to lib/xquery), or undefined when no rule says. */
function libTarget(rel) {
  const accelerator = rules.ACCELERATOR_HALVES[rel];
  if (accelerator) return `accelerators/${accelerator}/${path.posix.basename(rel)}`;
  if (rules.EXPLICIT[rel]) return rules.EXPLICIT[rel];
  for (const [pattern, target] of rules.PATTERNS) {
    const stars = match(pattern, rel);
    if (stars) return fill(target, stars);
  }
  return undefined;
}

/** Where __tests__/xquery/`rel` goes (relative to __tests__/xquery), or undefined. */
function testTarget(rel, libFiles) {
  const test = /^(.*)\.test\.ts$/.exec(rel);
  const libTwin = test ? `${test[1]}.ts` : undefined;
  const mirror = (libRel) => {
    const target = libTarget(libRel);
    return target && `${path.posix.dirname(target)}/${path.posix.basename(target, '.ts')}.test.ts`.replace(/^\.\//, '');
  };
  if (libTwin && libFiles.has(libTwin)) return mirror(libTwin);
  if (rules.TEST_EXPLICIT[rel]) return rules.TEST_EXPLICIT[rel];
  if (libTwin && rules.PATTERNS.some(([pattern]) => match(pattern, libTwin))) return mirror(libTwin);
  if (libTwin) {
    const named = [...libFiles].filter((f) => path.posix.basename(f) === path.posix.basename(libTwin));
    if (named.length === 1) return mirror(named[0]);
  }
  for (const [pattern, target] of rules.TEST_FOLDERS) {
    const stars = match(pattern, rel);
    if (stars) return fill(target, stars);
  }
  return undefined;
}

function git(...args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
}

function plan() {
  const tracked = git('ls-files', '-z', '--', LIB, TESTS).split('\0').filter(Boolean);
  const onDisk = [...filesUnder(ROOT, LIB), ...filesUnder(ROOT, TESTS)];
  const untracked = onDisk.filter((f) => !tracked.includes(f));
  if (untracked.length > 0) problems.push(`untracked files (commit or remove them first):\n  ${untracked.join('\n  ')}`);
  const libFiles = new Set(tracked.filter((f) => f.startsWith(`${LIB}/`)).map((f) => f.slice(LIB.length + 1)));
  const moves = new Map();
  const unplaced = [];
  for (const file of tracked) {
    const inLib = file.startsWith(`${LIB}/`);
    const rel = file.slice((inLib ? LIB : TESTS).length + 1);
    const target = inLib ? libTarget(rel) : testTarget(rel, libFiles);
    if (target === undefined) unplaced.push(file);
    else if (`${inLib ? LIB : TESTS}/${target}` !== file) moves.set(file, `${inLib ? LIB : TESTS}/${target}`);
  }
  if (unplaced.length > 0) problems.push(`no rule places these files (add them to scripts/relayout/rules.js):\n  ${unplaced.join('\n  ')}`);
  const landing = new Map();
  for (const [from, to] of moves) {
    if (landing.has(to)) problems.push(`${from} and ${landing.get(to)} would both become ${to}`);
    landing.set(to, from);
    if (tracked.includes(to) && !moves.has(to)) problems.push(`${from} would replace ${to}, which stays`);
  }
  return moves;
}

// ---------------------------------------------------------------------------------------------
// The edits: every reference to a moved file, computed on the old tree

/** The comment text of each line, with its offset: the rule of __tests__/comment-paths.test.ts. */
function commentsOf(text) {
  const out = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (/^(\/\/|\*|\/\*)/.test(trimmed)) out.push({ at: offset + line.indexOf(trimmed), comment: trimmed });
    else {
      const at = line.indexOf(' // ');
      if (at >= 0 && !/['"`]/.test(line.slice(at))) out.push({ at: offset + at, comment: line.slice(at) });
    }
    offset += line.length + 1;
  }
  return out;
}
/** A file name in prose, as comment-paths.test.ts reads them. */
const FILE_NAME = /(?<![\w@:/.*-])((?:\.\.?\/)?[\w.-]+(?:\/[\w.-]+)*\.ts)(?![\w/])/g;
/**
 * A path of the re-laid-out folders in code or configuration: from the repository's root, or
 * from lib/ (`xquery/worker/thread.ts`); the `\\.` escapes of a regular expression are kept.
 */
const REPO_PATH = /(?<![\w/.-])((?:lib\/|__tests__\/)?xquery(?:\/[\w-]+(?:(?:\\\\|\\)?\.[\w-]+)*)+)(?![\w/-])/g;

/**
 * The file a prose name stands for, the way comment-paths.test.ts finds it: beside the naming
 * file, from the root, from lib/, then the one file whose path ends with it (none if several do).
 */
function prose(from, name, files, byTail) {
  const tries = [path.posix.join(path.posix.dirname(from), name), path.posix.normalize(name), path.posix.join('lib', name)];
  const direct = tries.find((p) => files.has(p));
  if (direct) return { file: direct };
  const tail = name.replace(/^(\.\.?\/)+/, '');
  const ends = byTail(tail);
  if (ends.length === 1) return { file: ends[0] };
  return { ambiguous: ends };
}

function tailIndex(files) {
  const byBase = new Map();
  for (const f of files) {
    const base = path.posix.basename(f);
    if (!byBase.has(base)) byBase.set(base, []);
    byBase.get(base).push(f);
  }
  return (tail) => (byBase.get(path.posix.basename(tail)) ?? []).filter((f) => f === tail || f.endsWith(`/${tail}`));
}

function computeEdits(moves) {
  const all = [...CODE_FOLDERS.flatMap((f) => filesUnder(ROOT, f)), ...TOP_FILES.filter((f) => fs.existsSync(path.join(ROOT, f)))]
    .filter((f) => !f.startsWith(SELF));
  const oldFiles = new Set([...all, ...fs.readdirSync(ROOT).filter((f) => fs.statSync(path.join(ROOT, f)).isFile())]);
  const newFiles = new Set([...oldFiles].map((f) => moves.get(f) ?? f));
  const oldTail = tailIndex(oldFiles);
  const newTail = tailIndex(newFiles);
  const moved = (f) => moves.get(f) ?? f;
  const isOld = (f) => oldFiles.has(f);
  const isNew = (f) => newFiles.has(f);
  const oldDirs = new Set([...oldFiles].flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const newDirs = new Set([...newFiles].flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

  /** A prose name for `target` as seen from `from` in the new layout, in the style of `name`. */
  const proseName = (from, target, name) => {
    if (/^\.\.?\//.test(name)) {
      const rel = path.posix.relative(path.posix.dirname(from), target);
      return rel.startsWith('.') ? rel : `./${rel}`;
    }
    if (/^(lib|__tests__|scripts|bench)\//.test(name)) return target;
    // a name with folders names its file from lib/xquery, which shows the new place
    if (name.includes('/') && target.startsWith(`${LIB}/`)) {
      const fromLayout = name.startsWith('xquery/') ? target.slice('lib/'.length) : target.slice(LIB.length + 1);
      if (prose(from, fromLayout, newFiles, newTail).file === target) return fromLayout;
    }
    const parts = target.split('/');
    for (let k = Math.min(name.split('/').length, parts.length); k <= parts.length; k++) {
      const candidate = parts.slice(-k).join('/');
      if (prose(from, candidate, newFiles, newTail).file === target) return candidate;
    }
    return target;
  };

  const edits = new Map();
  const add = (file, edit) => {
    if (!edits.has(file)) edits.set(file, []);
    edits.get(file).push(edit);
  };
  const proseEdits = (file, text, ranges, counts) => {
    for (const { at, comment } of ranges) {
      for (const m of comment.matchAll(FILE_NAME)) {
        const name = m[1];
        if (/^[A-Z_]+$/.test(path.posix.basename(name, '.ts')) || path.posix.basename(name, '.ts').length < 2) continue;
        const old = prose(file, name, oldFiles, oldTail);
        if (!old.file) {
          if (old.ambiguous.some((f) => moves.has(f)) && newTail(name.replace(/^(\.\.?\/)+/, '')).length === 0) {
            warnings.push(`${file}: '${name}' names several files, some moved; left as written`);
          }
          continue;
        }
        const target = moved(old.file);
        if (prose(moved(file), name, newFiles, newTail).file === target) continue;
        const start = at + m.index + m[0].indexOf(name);
        add(file, { start, end: start + name.length, text: proseName(moved(file), target, name), kind: 'prose', priority: 3 });
        counts.prose++;
      }
    }
  };

  const counts = { imports: 0, runtimePaths: 0, repoPaths: 0, prose: 0 };
  for (const file of all) {
    const full = path.join(ROOT, file);
    const text = fs.readFileSync(full, 'utf8');
    const isCode = CODE.test(file);
    if (isCode) {
      for (const s of specifiersOf(file, text)) {
        const target = resolveSpecifier(file, s.text, isOld);
        if (!target || (!moves.has(target) && !moves.has(file))) continue;
        const next = specifierFor(moved(file), moved(target), s.text);
        if (resolveSpecifier(moved(file), s.text, isNew) === moved(target)) continue;
        add(file, { start: s.start, end: s.end, text: next, kind: 'import', priority: 1 });
        counts.imports++;
      }
      runtimePathEdits(file, text, moves, isOld, oldDirs, newDirs, add, counts);
      proseEdits(file, text, commentsOf(text), counts);
    }
    if (isCode || TOP_FILES.includes(file)) {
      for (const m of text.matchAll(REPO_PATH)) {
        const written = m[1];
        const unescaped = written.replace(/\\\\\./g, '.').replace(/\\\./g, '.');
        const fromLib = unescaped.startsWith('xquery/');
        const plain = fromLib ? `lib/${unescaped}` : unescaped;
        const target = [plain, `${plain}.ts`, `${plain}/index.ts`].find(isOld);
        if (!target) {
          if (oldDirs.has(plain) && !newDirs.has(plain)) warnings.push(`${file}: names the folder ${plain}, which the re-layout empties`);
          continue;
        }
        if (!moves.has(target)) continue;
        // `lib/xquery/engine` was engine.ts and is a folder of the new layout: which one is meant?
        if (target !== plain && newDirs.has(plain)) {
          warnings.push(`${file}: '${written}' names ${target} or the new folder ${plain}; left as written`);
          continue;
        }
        let next = moved(target);
        if (target !== plain) next = target.endsWith('/index.ts') ? path.posix.dirname(next) : next.replace(/\.ts$/, '');
        const escape = /\\\\\./.test(written) ? '\\\\.' : /\\\./.test(written) ? '\\.' : '.';
        if (fromLib) next = next.slice('lib/'.length);
        next = next.replace(/\./g, escape);
        add(file, { start: m.index, end: m.index + written.length, text: next, kind: 'repo-path', priority: 2 });
        counts.repoPaths++;
      }
    }
  }
  // docs: README.md, docs/*.md, and the Unreleased section of CHANGELOG.md
  const docs = ['README.md', ...filesUnder(ROOT, 'docs').filter((f) => f.endsWith('.md'))];
  for (const doc of docs) {
    if (!fs.existsSync(path.join(ROOT, doc))) continue;
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    proseEdits(doc, text, [{ at: 0, comment: text }], counts);
  }
  if (fs.existsSync(path.join(ROOT, 'CHANGELOG.md'))) {
    const text = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    const start = text.search(/^## \[?Unreleased\]?/im);
    if (start >= 0) {
      const rest = text.slice(start + 1).search(/^## /m);
      const end = rest < 0 ? text.length : start + 1 + rest;
      proseEdits('CHANGELOG.md', text, [{ at: start, comment: text.slice(start, end) }], counts);
    }
  }
  return { edits, counts };
}

/**
 * `path.join(__dirname, 'thread')`, `path.join(CODE_ROOT, 'xquery', 'compile.ts')`: a file
 * named by its place at run time. Its parts are rewritten to the new place; a moved folder named
 * this way stops the tool.
 */
function runtimePathEdits(file, text, moves, isOld, oldDirs, newDirs, add, counts) {
  if (!/__dirname|CODE_ROOT/.test(text)) return;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const moved = (f) => moves.get(f) ?? f;
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['join', 'resolve'].includes(node.expression.name.text)
      && node.arguments.length > 1 && ts.isIdentifier(node.arguments[0]) && ['__dirname', 'CODE_ROOT'].includes(node.arguments[0].text)
      && node.arguments.slice(1).every((a) => ts.isStringLiteral(a))) {
      const fromDir = node.arguments[0].text === '__dirname' ? path.posix.dirname(file) : 'lib';
      const newFromDir = node.arguments[0].text === '__dirname' ? path.posix.dirname(moved(file)) : 'lib';
      const parts = node.arguments.slice(1).map((a) => a.text);
      const named = path.posix.normalize(path.posix.join(fromDir, ...parts));
      const target = [named, `${named}.ts`, `${named}/index.ts`].find(isOld);
      if (!target) {
        if (oldDirs.has(named) && !newDirs.has(named) && named.startsWith(LIB)) problems.push(`${file}: names the folder ${named} at run time, which the re-layout empties`);
        ts.forEachChild(node, visit);
        return;
      }
      if (moves.has(target) || moved(file) !== file) {
        let rel = path.posix.relative(newFromDir, moved(target));
        if (target !== named) rel = rel.replace(/\.ts$/, '');
        if (rel !== parts.join('/')) {
          const quote = text[node.arguments[1].getStart(source)];
          const first = node.arguments[1].getStart(source);
          const last = node.arguments[node.arguments.length - 1].getEnd();
          add(file, { start: first, end: last, text: rel.split('/').map((p) => `${quote}${p}${quote}`).join(', '), kind: 'runtime-path', priority: 0 });
          counts.runtimePaths++;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function applyEdits(text, edits) {
  const chosen = [];
  for (const e of [...edits].sort((a, b) => a.priority - b.priority || a.start - b.start)) {
    if (chosen.some((c) => e.start < c.end && c.start < e.end)) continue;
    chosen.push(e);
  }
  chosen.sort((a, b) => b.start - a.start);
  for (const e of chosen) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

// ---------------------------------------------------------------------------------------------

function main() {
  if (fs.existsSync(path.join(ROOT, LIB, 'engine', 'engine.ts'))) {
    console.log('lib/xquery is laid out already (lib/xquery/engine/engine.ts exists): nothing to do.');
    return;
  }
  if (!DRY && git('status', '--porcelain').trim() !== '') problems.push('the working tree has changes: commit or stash them first');
  const moves = plan();
  if (problems.length > 0) {
    console.error(`relayout: stopped, nothing changed.\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
    return;
  }
  const { edits, counts } = computeEdits(moves);
  if (problems.length > 0) {
    console.error(`relayout: stopped, nothing changed.\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
    return;
  }
  const byFolder = new Map();
  for (const [from, to] of moves) {
    const key = `${path.posix.dirname(from)}/ -> ${path.posix.dirname(to)}/`;
    byFolder.set(key, (byFolder.get(key) ?? 0) + 1);
  }
  if (DRY) {
    for (const [from, to] of [...moves].sort()) console.log(`${from} -> ${to}`);
  } else {
    const texts = new Map([...edits].map(([file, list]) => [file, applyEdits(fs.readFileSync(path.join(ROOT, file), 'utf8'), list)]));
    for (const [from, to] of moves) {
      fs.mkdirSync(path.dirname(path.join(ROOT, to)), { recursive: true });
      git('mv', from, to);
    }
    for (const [file, text] of texts) fs.writeFileSync(path.join(ROOT, moves.get(file) ?? file), text);
    // folders the moves emptied
    for (const dir of new Set([...moves.keys()].map((f) => path.posix.dirname(f)))) {
      for (let d = dir; d !== LIB && d !== TESTS && d !== '.'; d = path.posix.dirname(d)) {
        const full = path.join(ROOT, d);
        if (fs.existsSync(full) && fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      }
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`relayout${DRY ? ' (dry run)' : ''}: ${moves.size} files moved, ${edits.size} files rewritten ` +
    `(${counts.imports} module specifiers, ${counts.runtimePaths} run-time paths, ${counts.repoPaths} repository paths, ${counts.prose} names in comments and docs) in ${seconds} s`);
  for (const [key, n] of [...byFolder].sort()) console.log(`  ${String(n).padStart(3)}  ${key}`);
  for (const w of [...new Set(warnings)]) console.log(`  warning: ${w}`);
}

main();
