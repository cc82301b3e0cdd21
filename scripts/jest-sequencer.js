// Jest's order of test files (jest.config.js `testSequencer`): its own (failed first, then the
// longest by the times of the last run in jest's cache, files without a time before them), except
// for a file's size where no time is known, as on a fresh clone. jest takes a larger file for a
// longer one; a file that runs another file's tests (`require('…x.test')`, as the PostgreSQL
// parity suites do) counts here with that file's size, so that it is not left for last.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** `require('./x.test')` of another test file. */
const TEST_REQUIRE = /require\(\s*['"](\.{1,2}\/[^'"]+\.test)['"]\s*\)/g;

class SuiteSequencer extends Sequencer {
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
