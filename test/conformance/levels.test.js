// Holds the engine at the level it reached on three public projects' own parser test suites (issue 30):
// ClusterFuzz's stack analyzer tests, jenkinsci/analysis-model's parser tests and jstemmer/go-junit-report's
// golden reports, read from ../shared/conformance (bench/conformance.js scores them). Every score may rise,
// none may drop below test/conformance/levels.json; raise the file (node bench/conformance.js --json) when it
// rises. Without ../shared/conformance (a checkout without the shared data) the suite says so and is skipped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runConformance, scores, CONFORMANCE_DIR, ROOT } from '../../bench/conformance.js';

const levels = JSON.parse(readFileSync(join(ROOT, 'test/conformance/levels.json'), 'utf8'));

if (!existsSync(CONFORMANCE_DIR)) {
  test(`conformance suites skipped: no ${CONFORMANCE_DIR} (CI has it; see bench/conformance.js)`, () => {});
} else {
  const now = scores(await runConformance());
  for (const [suite, metrics] of Object.entries(levels)) {
    test(`${suite}: every score at or above its level`, () => {
      if (metrics === null) return;
      const got = now[suite];
      assert.ok(got, `${suite}: the suite was not found under ${CONFORMANCE_DIR}`);
      const drops = [];
      for (const [m, level] of Object.entries(metrics)) {
        const g = got[m] ?? { passed: 0, total: level.total };
        // a share, so that a suite that grows is held at the same rate
        if (g.passed * level.total < level.passed * g.total) drops.push(`${m}: ${g.passed}/${g.total}, level ${level.passed}/${level.total}`);
      }
      assert.ok(drops.length === 0, `${suite} dropped below its level (npm run bench:conformance lists the failures):\n  ${drops.join('\n  ')}`);
    });
  }
}

test.run();
