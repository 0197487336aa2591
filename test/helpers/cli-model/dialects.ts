import { anthropic } from './anthropic.js';
import type { Dialect } from './dialect.js';
import { gemini } from './gemini.js';
import { responses } from './responses.js';

/** Every dialect the server speaks, tried in order by path. */
export const DIALECTS: readonly Dialect[] = [anthropic, responses, gemini];
