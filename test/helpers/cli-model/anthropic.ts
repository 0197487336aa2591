import type { Dialect } from './dialect.js';

/** The anthropic dialect (not spoken yet). */
export const anthropic: Dialect = {
  name: 'anthropic',
  matches: () => false,
  read: () => null,
  side: (res) => void res.writeHead(404).end(),
  reply: (res) => void res.writeHead(501).end(),
  error: (status, message) => ({ status, message }),
};
