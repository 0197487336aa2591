/** The plugin config of the specification's installation example (`plugins.entries.svc.config`). */
export const INSTALL_EXAMPLE = {
  dryRun: false,
  dataDir: '/home/me/.svc',
  gatewayUrl: 'http://127.0.0.1:18789',
  gatewayToken: '<GATEWAY_TOKEN>',
  pollIntervalMs: 30000,
  defaultLeaseTtlMs: 1800000,
  heartbeatTtlMs: 300000,
  maxConcurrentDispatches: 3,
  modules: { memory: { enabled: false } },
  memory: {
    embedding: { provider: 'openai', model: 'text-embedding-3-small', apiKey: '<API_KEY>' },
    search: { hybridEnabled: true, vectorWeight: 0.7, bm25Weight: 0.3, maxResults: 10 },
  },
};
