import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toOrgChartFile, toWorkflowFile, toWorkflowsDir } from '../../lib/org/files.js';
import { toPaths } from '../../lib/store/disk/paths.js';

const files = suite('org.files');

files('agree with the disk layout of lib/store/disk/paths.ts', () => {
  const paths = toPaths('/tmp/svc-root');
  assert.is(toOrgChartFile('/tmp/svc-root'), paths.orgChart);
  assert.is(toWorkflowsDir('/tmp/svc-root'), paths.workflows);
  assert.is(toWorkflowFile('/tmp/svc-root', 'implement-review'), paths.workflowFile('implement-review'));
});

files.run();
