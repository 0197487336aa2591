// Build step: writes dist/plugin/tools.json, the JSON schemas of the svc_* tools generated from their
// zod schemas (the same source as the daemon and MCP), which the OpenClaw plugin registers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { toToolManifest } from '../dist/tools/manifest.js';

const target = new URL('../dist/plugin/tools.json', import.meta.url);
mkdirSync(new URL('.', target), { recursive: true });
writeFileSync(target, `${JSON.stringify(toToolManifest(), null, 2)}\n`);
