/**
 * QT3 figures for the constructor and conditional test sets (constructors*.ts, conditional.ts),
 * through engine.evaluate and the shared runner, with reports of their own.
 * Skipped unless QT3=1:   QT3=1 npx jest __tests__/xquery/translate/constructors-qt3.test.ts
 * Optional: QT3_SETS='^prod-SwitchExpr$', QT3_VERBOSE=1. Report: /tmp/qt3-constructors-report.md.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createEngine } from '../../../lib/xquery/engine';
import { serveEngine } from '../engine/qt3-harness';

const SETS =
  '^prod-(DirElemConstructor|DirAttributeList|DirElemContent|CompElemConstructor|CompAttrConstructor|CompTextConstructor|StringConstructor|TypeswitchExpr|SwitchExpr|TryCatchExpr)$';
const run = process.env.QT3 === '1' ? it : it.skip;

describe('QT3: constructor and conditional sets', () => {
  run(
    'prints per-set pass counts',
    async () => {
      const engine = createEngine({ workers: 2, timeoutMs: 8000 });
      // warm both workers up: a cold worker can miss the runner's 10 s timeout on its first test
      await Promise.all([1, 2].map((i) => engine.evaluate({ query: `<w>{${i}}</w>`, context: { kind: 'none' }, variables: new Map(), serialization: {}, timeoutMs: 120_000 })));
      const server = await serveEngine(engine);
      try {
        const args = [
          '/work/shared/tools/qt3/qt3.mjs', '--target', 'rest', '--url', server.url, '--jobs', '2',
          '--report', '/tmp/qt3-constructors-report.md', '--json', '/tmp/qt3-constructors-results.json',
          '--sets', process.env.QT3_SETS ?? SETS,
          ...(process.env.QT3_VERBOSE ? ['--verbose'] : []),
        ];
        const out = await new Promise<string>((resolve, reject) => {
          const p = spawn(process.execPath, args, { cwd: path.join(__dirname, '../../..') });
          let text = '';
          p.stdout.on('data', (d: Buffer) => (text += d.toString()));
          p.on('error', reject);
          p.on('close', () => resolve(text));
        });
        console.log(out);
        expect(out).toMatch(/\d+ passed, \d+ failed, \d+ skipped/);
      } finally {
        await server.stop();
        await engine.close();
      }
    },
    1_800_000,
  );
});
