/* global require, process, module */
/* eslint-disable @typescript-eslint/no-require-imports -- mocha loads reporters with require() */
'use strict';
/**
 * A mocha reporter for finding what makes the suite slow: prints dots (like `dot`) and, at the end,
 * writes one JSON line per test file to `PORTER_TEST_TIMINGS` (default `test/e2e/tmp/test-timings.jsonl`, ignored):
 * the file's wall time from its first to its last event, its tests' summed durations and its
 * slowest tests. `npx mocha --reporter test/support/file-timings.cjs 'test/**\/*.test.ts'`.
 * Wall times are only meaningful in a serial run (a parallel run replays each file's events at once).
 */
const { appendFileSync, mkdirSync } = require('node:fs');
const { dirname } = require('node:path');
const Mocha = require('mocha');
const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_END, EVENT_RUN_END, EVENT_HOOK_END } = Mocha.Runner.constants;

class FileTimings extends Mocha.reporters.Dot {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.PORTER_TEST_TIMINGS || 'test/e2e/tmp/test-timings.jsonl';
    const files = new Map();
    const of = (file) => {
      if (!files.has(file)) files.set(file, { file, start: Date.now(), end: Date.now(), tests: 0, testMs: 0, hookMs: 0, slow: [] });
      return files.get(file);
    };
    runner.on(EVENT_SUITE_BEGIN, (suite) => suite.file && of(suite.file));
    runner.on(EVENT_SUITE_END, (suite) => suite.file && (of(suite.file).end = Date.now()));
    runner.on(EVENT_HOOK_END, (hook) => {
      const file = hook.file || hook.parent?.file;
      if (file) of(file).hookMs += hook.duration || 0;
    });
    runner.on(EVENT_TEST_END, (test) => {
      const file = test.file || test.parent?.file;
      if (!file) return;
      const entry = of(file);
      entry.tests += 1;
      entry.testMs += test.duration || 0;
      entry.slow.push([test.duration || 0, test.fullTitle()]);
    });
    runner.once(EVENT_RUN_END, () => {
      mkdirSync(dirname(out), { recursive: true });
      for (const entry of files.values()) {
        entry.slow = entry.slow.sort((a, b) => b[0] - a[0]).slice(0, 5);
        appendFileSync(out, JSON.stringify({ ...entry, wallMs: entry.end - entry.start }) + '\n');
      }
    });
  }
}
module.exports = FileTimings;
