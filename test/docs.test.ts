import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../lib/tools/index.js';

// The README is the entry and docs/ holds the reference, one topic a file: every relative link
// must land on a file, and on a heading of it when it names one.
const root = new URL('..', import.meta.url).pathname;
const docsDir = join(root, 'docs');
const pages = [
  join(root, 'README.md'),
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docsDir, name)),
];

const docs = suite('docs');

docs('every relative link in README.md and docs/*.md names an existing file and heading', () => {
  const broken: string[] = [];
  for (const page of pages) {
    for (const { target, line } of linksOf(readFileSync(page, 'utf8'))) {
      const problem = checkLink(page, target);
      if (problem) broken.push(`${relative(root, page)}:${line}: ${target}: ${problem}`);
    }
  }
  assert.equal(broken, [], `broken links:\n${broken.join('\n')}`);
});

docs('the README links every topic of docs/', () => {
  const linked = new Set(
    linksOf(readFileSync(join(root, 'README.md'), 'utf8')).map(({ target }) => target.split('#')[0]),
  );
  const missing = readdirSync(docsDir).filter((name) => name.endsWith('.md') && !linked.has(`docs/${name}`));
  assert.equal(missing, [], `docs the README does not link: ${missing.join(', ')}`);
});

docs('the README stays an entry of about 300 lines at most', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 320, `README.md has ${lines} lines; move reference to a topic in docs/`);
});

docs('headings become the anchors a link names, as GitHub makes them', () => {
  assert.equal(
    anchorsOf(
      '# The daemon\n## `svc init`: wiring svc into a gateway\n```\n# not a heading\n```\n## Limits\n## Limits\n',
    ),
    new Set(['the-daemon', 'svc-init-wiring-svc-into-a-gateway', 'limits', 'limits-1']),
  );
  assert.equal(linksOf('[a](x.md#y) `[b](c.md)` [web](https://example.com)\n```\n[d](e.md)\n```\n'), [
    { target: 'x.md#y', line: 1 },
  ]);
});

docs(
  'docs/agent-tools.md names every parameter of each svc_* tool in its row (actor, which every tool takes, in the text above)',
  () => {
    const doc = readFileSync(join(docsDir, 'agent-tools.md'), 'utf8');
    const missing: string[] = [];
    for (const tool of TOOLS) {
      const row = new RegExp(`^\\| \`${tool.name}\` \`\\{([^}]*)\\}\``, 'm').exec(doc);
      const named = new Set((row?.[1] ?? '').split(',').map((param) => param.trim().replace(/\?$/, '')));
      const shape = (tool.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      for (const param of Object.keys(shape))
        if (param !== 'actor' && !named.has(param)) missing.push(`${tool.name}: ${param}`);
    }
    assert.equal(missing, [], `parameters docs/agent-tools.md does not list: ${missing.join(', ')}`);
  },
);

docs.run();

// --- internal ---

/** The relative link targets of a Markdown text, outside code spans and fences, with their line. */
function linksOf(text: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, index) => {
    if (/^\s*```/.test(raw)) fenced = !fenced;
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (!/^[a-z]+:/i.test(target)) found.push({ target, line: index + 1 });
    }
  });
  return found;
}

/** What is wrong with a link from `page`, or undefined when it resolves. */
function checkLink(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? page : join(dirname(page), path);
  if (!existsSync(file)) return `no file ${relative(root, file)}`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return `an anchor into ${relative(root, file)}, which is not a Markdown file`;
  const anchors = anchorsOf(readFileSync(file, 'utf8'));
  return anchors.has(anchor)
    ? undefined
    : `no heading #${anchor} in ${relative(root, file)} (it has ${[...anchors].map((a) => `#${a}`).join(', ')})`;
}

/** The anchors of a Markdown text's headings: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
