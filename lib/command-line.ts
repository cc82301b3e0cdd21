/**
 * The command line of the standalone server: flags (read with `node:util` `parseArgs`), the
 * environment variables behind them, their defaults, and the usage text, all from one table.
 * Flags win over environment variables, which win over the defaults.
 */
import { parseArgs } from 'node:util';
import { MAX_QUERY_TIMEOUT_MS, resolveOptions, type RestOptions } from './router-options';

export interface ServerSettings {
  port: number;
  host: string;
  dbPath: string;
  restPath: string;
  adminPassword?: string;
  /** A PostgreSQL store shared by several servers (router option `storeUrl`). */
  storeUrl?: string;
  /** `text`: plain lines; `json`: pino's JSON lines, with an access log record per request. */
  logFormat?: 'text' | 'json';
  /** Router option `queryTimeout` (milliseconds; given in seconds). Default: the router's. */
  queryTimeout?: number;
  /** Router option `workers`. Default: the router's. */
  workers?: number;
  /** Router option `maxBodySize` (bytes; given in MiB). Default: the router's. */
  maxBodySize?: number;
  /** The web console at `/console`: `on`, `off`, or unset (on when `host` is a loopback address). */
  console?: 'on' | 'off';
}

/** An integer setting: the range of the value given, and what one unit of it is in the router's unit. */
interface IntegerRule {
  readonly min: number;
  /** Undefined: as large as the router's unit allows exactly. */
  readonly max?: number;
  /** Default 1. */
  readonly unit?: number;
}

interface Setting {
  readonly key: keyof ServerSettings;
  readonly flag: string;
  readonly env: string;
  /** The value name in the usage text. */
  readonly value: string;
  readonly help: string;
  /** Undefined: no default (the setting stays unset). */
  readonly default?: string;
  /** The usage text's default of a setting without `default`: what applies when it is unset. */
  readonly unsetMeans?: string;
  /** The only values allowed, if the setting has a fixed set. */
  readonly choices?: readonly string[];
  /** Set for an integer setting: its range and unit. */
  readonly integer?: IntegerRule;
}

const SECOND = 1000;
const MiB = 1024 * 1024;
/** The router's defaults, for the usage text of the settings that leave theirs to it. */
const ROUTER: Pick<Required<RestOptions>, 'queryTimeout' | 'maxBodySize'> = resolveOptions({});

const SETTINGS: readonly Setting[] = [
  { key: 'port', flag: 'port', env: 'PORT', value: 'N', help: 'port to listen on (0: any free port)', default: '8080', integer: { min: 0, max: 65535 } },
  { key: 'host', flag: 'host', env: 'HOST', value: 'HOST', help: 'address to listen on', default: '127.0.0.1' },
  { key: 'dbPath', flag: 'db-path', env: 'XMLDB_PATH', value: 'DIR', help: 'data folder', default: './data' },
  { key: 'restPath', flag: 'restpath', env: 'XMLDB_RESTPATH', value: 'DIR', help: 'folder of .xq/.bxs files for `run`', default: './restpath' },
  { key: 'adminPassword', flag: 'admin-password', env: 'XMLDB_ADMIN_PASSWORD', value: 'PW', help: 'password of admin on a new data folder (default: generated)' },
  { key: 'storeUrl', flag: 'store-url', env: 'XMLDB_STORE_URL', value: 'URL', help: 'keep everything in PostgreSQL (postgres://user:password@host:port/database), shared by every server given the same URL; the data folder then holds caches only' },
  { key: 'logFormat', flag: 'log-format', env: 'XMLDB_LOG_FORMAT', value: 'text|json', help: 'log lines as text, or as JSON with a record per request', default: 'text', choices: ['text', 'json'] },
  // BaseX's TIMEOUT, in seconds as there; 0 (BaseX: no limit) has no counterpart in the router.
  { key: 'queryTimeout', flag: 'timeout', env: 'XMLDB_TIMEOUT', value: 'SECONDS', help: 'time limit of a query (twice it: of a wait for database locks)', unsetMeans: `${ROUTER.queryTimeout / SECOND}`, integer: { min: 1, max: MAX_QUERY_TIMEOUT_MS / SECOND, unit: SECOND } },
  { key: 'workers', flag: 'workers', env: 'XMLDB_WORKERS', value: 'N', help: 'query worker threads', unsetMeans: 'one per core', integer: { min: 1 } },
  { key: 'console', flag: 'console', env: 'XMLDB_CONSOLE', value: 'on|off', help: 'serve the web console at /console', unsetMeans: 'on for a loopback host, else off', choices: ['on', 'off'] },
  { key: 'maxBodySize', flag: 'max-body-size', env: 'XMLDB_MAX_BODY_SIZE', value: 'MIB', help: 'largest PUT body in MiB (larger: 413)', unsetMeans: `${ROUTER.maxBodySize / MiB}`, integer: { min: 1, unit: MiB } },
];

const SWITCHES = [
  { flag: 'help', short: 'h', help: 'print this text and exit' },
  { flag: 'version', short: 'v', help: 'print the version and exit' },
] as const;

/** A command line the server cannot run with; the message names the flag or variable at fault. */
export class UsageError extends Error {}

export type CommandLine =
  | { readonly action: 'serve'; readonly settings: ServerSettings }
  | { readonly action: 'help' }
  | { readonly action: 'version' };

export function usage(): string {
  const rows: Array<[string, string]> = [
    ...SETTINGS.map((s): [string, string] => [`--${s.flag} ${s.value}`, `${s.help}; env ${s.env}${defaultText(s)}`]),
    ...SWITCHES.map((s): [string, string] => [`-${s.short}, --${s.flag}`, s.help]),
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    'Usage: xmldb-rest [options]',
    '',
    "Serves BaseX's REST interface at http://HOST:PORT/rest over the databases of a data folder.",
    '',
    'Options (a flag wins over its environment variable):',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
  ].join('\n');
}

function defaultText(s: Setting): string {
  const text = s.default ?? s.unsetMeans;
  return text === undefined ? '' : `; default ${text}`;
}

/** An integer setting's value in the router's unit; digits only, within the rule's range. */
function integerValue(rule: IntegerRule, text: string, source: string): number {
  const unit = rule.unit ?? 1;
  const max = rule.max ?? Math.floor(Number.MAX_SAFE_INTEGER / unit);
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= rule.min && value <= max)) {
    const expected = rule.max === undefined ? `an integer of at least ${rule.min}` : `an integer from ${rule.min} to ${rule.max}`;
    throw new UsageError(`invalid ${source} '${text}': expected ${expected}`);
  }
  return value * unit;
}

function settingValue(setting: Setting, text: string, source: string): string | number {
  if (setting.integer !== undefined) return integerValue(setting.integer, text, source);
  if (setting.choices !== undefined && !setting.choices.includes(text)) {
    throw new UsageError(`invalid ${source} '${text}': expected ${setting.choices.join(' or ')}`);
  }
  if (text === '') throw new UsageError(`invalid ${source} '': expected a value`);
  return text;
}

/** Reads the command line (`argv` without node and the script) and the environment. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): CommandLine {
  const options = Object.fromEntries([
    ...SETTINGS.map((s) => [s.flag, { type: 'string' as const }]),
    ...SWITCHES.map((s) => [s.flag, { type: 'boolean' as const, short: s.short }]),
  ]);
  // Not strict: every token is checked here, so that each mistake gets a message of its own.
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const flags = new Map<Setting, string>();
  let action: CommandLine['action'] = 'serve';
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') throw new UsageError(`unexpected argument '${token.value}'`);
    const setting = SETTINGS.find((s) => s.flag === token.name);
    if (setting !== undefined) {
      // `--port --host x` would take `--host` as the port: a value must not look like a flag.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
        throw new UsageError(`option '${token.rawName}' needs a value (--${setting.flag} ${setting.value} or --${setting.flag}=${setting.value})`);
      }
      flags.set(setting, token.value);
    } else if (SWITCHES.some((s) => s.flag === token.name)) {
      if (token.value !== undefined) throw new UsageError(`option '${token.rawName}' takes no value`);
      if (action === 'serve') action = token.name as 'help' | 'version';
    } else {
      throw new UsageError(`unknown option '${token.rawName}'`);
    }
  }
  if (action !== 'serve') return { action };
  const settings: Record<string, string | number | undefined> = {};
  for (const s of SETTINGS) {
    const flag = flags.get(s);
    const fromEnv = env[s.env];
    if (flag !== undefined) settings[s.key] = settingValue(s, flag, `--${s.flag}`);
    else if (fromEnv !== undefined && fromEnv !== '') settings[s.key] = settingValue(s, fromEnv, s.env);
    else settings[s.key] = s.default === undefined ? undefined : settingValue(s, s.default, 'default');
  }
  return { action, settings: settings as unknown as ServerSettings };
}
