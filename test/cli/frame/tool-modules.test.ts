import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadTool, LOADABLE_TOOLS } from '../../../lib/cli/frame/tool-modules.js';
import { APPROVAL_TOOLS } from '../../../lib/tools/approval.js';
import { TOOLS } from '../../../lib/tools/index.js';

const modules = suite('cli/tool-modules: svc tool loads the one tool it calls');

modules('every tool, and nothing else, loads by its name alone', async () => {
  const tools = [...TOOLS, ...APPROVAL_TOOLS];
  assert.equal([...LOADABLE_TOOLS].sort(), tools.map((tool) => tool.name).sort());
  for (const tool of tools) assert.equal(await loadTool(tool.name), [tool], tool.name);
  assert.equal(await loadTool('svc_nothing'), []);
  assert.equal(await loadTool('constructor'), []);
});

modules.run();
