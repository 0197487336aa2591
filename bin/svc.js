#!/usr/bin/env node
// The compile cache (Node >= 22.1) keeps the compiled code of the bundle between runs.
import module from 'node:module';

module.enableCompileCache?.();
const { run } = await import('../dist/bin/main.js');
await run();
