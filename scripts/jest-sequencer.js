// Jest's order of test files (jest.config.js `testSequencer`): failed first, then the longest
// first, files of unknown duration before them. A file's duration is the one of its last run in
// jest's cache, else the one recorded in scripts/test-durations.json (`npm test --
// --record-durations`), so that a fresh clone, whose jest cache is empty, also starts the long
// files first rather than leaving one for the end of the run; a file in neither (a new one) is
// placed by its size, as jest does, a file that runs another file's tests
// (`require('…x.test')`, as the PostgreSQL parity suites do) counting with that file's size.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { recordedDurations } = require('./test-durations');

/** `require('./x.test')` of another test file. */
const TEST_REQUIRE = /require\(\s*['"](\.{1,2}\/[^'"]+\.test)['"]\s*\)/g;

class SuiteSequencer extends Sequencer {
  /** Recorded durations (ms) by path from the root directory (scripts/test-durations.js). */
  durations = recordedDurations();

  time(test) {
    return super.time(test) ?? this.durations.get(path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/'));
  }

  sort(tests) {
    const sizes = new Map();
    const size = (file) => {
      if (!sizes.has(file)) {
        let text = '';
        try {
          text = fs.readFileSync(file, 'utf8');
        } catch {
          // gone: size 0
        }
        sizes.set(file, text.length);
        let total = text.length;
        for (const [, request] of text.matchAll(TEST_REQUIRE)) total += size(path.resolve(path.dirname(file), `${request}.ts`));
        sizes.set(file, total);
      }
      return sizes.get(file);
    };
    for (const test of tests) test.duration = this.time(test);
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return b.duration - a.duration;
      return size(b.path) - size(a.path);
    });
  }
}

module.exports = SuiteSequencer;
