import type { Dialect } from './dialect.js';

/** The responses dialect (not spoken yet). */
export const responses: Dialect = {
  name: 'responses',
  matches: () => false,
  read: () => null,
  side: (res) => void res.writeHead(404).end(),
  reply: (res) => void res.writeHead(501).end(),
  error: (status, message) => ({ status, message }),
};
