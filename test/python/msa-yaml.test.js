// The shipped mini-SWE-agent config (src/integrations/mini-swe-agent/sbx.yaml) loads into the environment
// and, as shipped, takes the resident transport it documents: nothing in it (env, sbx_args) that only
// `sbx run` can express.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../fixtures/lib/cases.js';
import { needs } from '../_tools.js';

const test = needs('test/python/msa-yaml (the shipped sbx.yaml)', ['python3'], suite('mini-SWE-agent sbx.yaml'));

test('as shipped, every ordinary action can go to the resident sbx mcp server', () => {
  const dir = join(ROOT, 'src/integrations/mini-swe-agent');
  const code = `
import sys, json, yaml
sys.path.insert(0, ${JSON.stringify(dir)})
from sbx_environment import SbxEnvironment
cfg = dict(yaml.safe_load(open(${JSON.stringify(join(dir, 'sbx.yaml'))}))["environment"])
cfg.pop("environment_class")
cfg["sbx_command"] = ${JSON.stringify([process.execPath, join(ROOT, 'dist/cli.js')])}  # the shipped one names sbx on PATH
env = SbxEnvironment(**cfg)
print(json.dumps({"transport": env.config.transport, "mcp": env._mcp_expressible("make test", env.config.timeout)}))
`;
  const r = spawnSync('python3', ['-c', code], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), { transport: 'mcp', mcp: true });
});

test.run();
