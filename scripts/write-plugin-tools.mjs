// Build step (`node scripts/write-plugin-tools.mjs <build folder>`, run by scripts/build.mjs): writes
// <build folder>/plugin/tools.json, the JSON schemas of the svc_* tools generated from their zod
// schemas (the same source as the daemon and MCP), which the OpenClaw plugin registers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const folder = resolve(new URL('..', import.meta.url).pathname, process.argv[2] ?? 'dist');
const { toToolManifest } = await import(pathToFileURL(join(folder, 'tools/manifest.js')).href);
mkdirSync(join(folder, 'plugin'), { recursive: true });
writeFileSync(join(folder, 'plugin/tools.json'), `${JSON.stringify(toToolManifest(), null, 2)}\n`);
