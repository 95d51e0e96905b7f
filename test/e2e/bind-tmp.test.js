// A --bind or --ro-bind whose destination is inside /tmp (a cache at /tmp/cache, as people pass for
// pip or ccache) is seen there: /tmp's own tmpfs is mounted before the binds, not over them. Before,
// the bind was made and then hidden by the tmpfs, and the command found nothing. Root and ordinary user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workDir, sbxRun, logText } from './_helpers.js';

const rows = [
  { flag: '--bind', dst: '/tmp/cache', writes: true },
  { flag: '--ro-bind', dst: '/tmp/cache', writes: false },
  { flag: '--bind', dst: '/tmp/a/b/deep', writes: true },
];

for (const row of rows) {
  test(`${row.flag} SRC:${row.dst}: the command sees the files${row.writes ? ' and writes through' : ', read-only'}`, () => {
    const dir = workDir({});
    const src = workDir({ 'f.txt': 'hello from the host\n' }, 'sbx-bind-src-');
    const r = sbxRun(dir, ['sh', '-c', `cat ${row.dst}/f.txt && (echo new > ${row.dst}/g.txt) 2>/dev/null; echo wrote=$?; echo tmp-ok > /tmp/x && cat /tmp/x`], {
      flags: [row.flag, `${src}:${row.dst}`],
    });
    const out = logText(r.env);
    assert.is(r.code, 0, r.why());
    assert.match(out, /hello from the host/, out);
    assert.match(out, /tmp-ok/, '/tmp is still a writable tmpfs');
    if (row.writes) {
      assert.match(out, /wrote=0/, out);
      assert.is(readFileSync(join(src, 'g.txt'), 'utf8'), 'new\n');
    } else {
      assert.match(out, /wrote=[1-9]/, out);
    }
  });
}

test.run();
