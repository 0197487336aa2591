// A strict reader of the Prometheus text format 0.0.4, for tests: it throws on any line a
// Prometheus server would refuse, so a test that parses a scrape also checks the format.

/** One sample: metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed scrape: the samples, and the TYPE and HELP of each family. */
export interface Scrape {
  samples: Sample[];
  types: Map<string, string>;
  help: Map<string, string>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

/** Parses the text; throws naming the line on anything malformed or a sample of an undeclared family. */
export function parsePrometheus(text: string): Scrape {
  const scrape: Scrape = { samples: [], types: new Map(), help: new Map() };
  text.split('\n').forEach((line, at) => {
    if (line.trim() === '') return;
    const fail = (why: string) => {
      throw new Error(`line ${at + 1} ${JSON.stringify(line)}: ${why}`);
    };
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!NAME.test(name)) fail('bad metric name');
      if (kind === 'TYPE' && !TYPES.has(rest)) fail(`unknown type ${rest}`);
      if (kind === 'TYPE' && scrape.types.has(name)) fail('TYPE given twice');
      (kind === 'TYPE' ? scrape.types : scrape.help).set(name, rest);
      return;
    }
    if (line.startsWith('#')) return;
    const sample = parseSample(line) ?? fail('not a sample');
    if (!familyOf(sample.name, scrape.types)) fail(`no TYPE line before ${sample.name}`);
    scrape.samples.push(sample);
  });
  return scrape;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
export function valueOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = scrape.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

// --- internal ---

function parseSample(line: string): Sample | undefined {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{)?/.exec(line);
  if (!head) return undefined;
  const name = head[1]!;
  let at = head[0].length;
  const labels: Record<string, string> = {};
  if (head[2]) {
    for (;;) {
      if (line[at] === '}') break;
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,?)/.exec(line.slice(at));
      if (!label) return undefined;
      labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
      at += label[0].length;
      if (!label[3] && line[at] !== '}') return undefined;
    }
    at += 1;
  }
  const rest = /^ (\S+)( -?\d+)?$/.exec(line.slice(at));
  if (!rest) return undefined;
  const value = toNumber(rest[1]!);
  return value === undefined ? undefined : { name, labels, value };
}

function toNumber(text: string): number | undefined {
  // Prometheus reads values as Go's ParseFloat does: Inf and NaN in any case (prom-client writes `Nan`)
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) && Number.isFinite(value) ? value : undefined;
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const suffix = SUFFIXES.find((s) => name.endsWith(s));
  const base = suffix ? name.slice(0, -suffix.length) : undefined;
  return base !== undefined && types.has(base) ? base : undefined;
}
