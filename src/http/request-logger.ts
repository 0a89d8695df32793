import type { FastifyBaseLogger } from 'fastify';
import type { ChildLoggerOptions as Options } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];
type Bindings = Record<string, unknown>;
/** The application's logger, pino: Fastify's logger type leaves out `isLevelEnabled`. */
type Pino = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

const REDACTED = '[redacted]';
/** Path segments that are the only credential of a page: the KYC link's token, an invitation's code. */
const SECRET_AFTER = new Set(['kyc', 'invitations']);
/** 16 or more base64url characters with a digit or a capital: a random token (route words are lower case). */
const BEARER_LIKE = /^(?=[A-Za-z0-9_-]*[0-9A-Z])[A-Za-z0-9_-]{16,}$/;
const SECRET_QUERY = /^(token|code|secret|password|key|signature|sig)$|(token|secret|password|apikey|api_key)$/i;

/**
 * The URL as the log may show it. The sandbox KYC page's token and an invitation's code are the
 * whole credential of their pages, and a log is read by more people than the credential was
 * meant for: the segment after `kyc/` or `invitations/`, any other segment that looks like a
 * random token, and query values with a secret's name become `[redacted]`. Ids (`Customer:…`)
 * and route words stay, so a line still says which route and object it was about.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const segments = path.split('/');
  let changed = false;
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '' || segment === REDACTED) continue;
    if (SECRET_AFTER.has(segments[i - 1].toLowerCase()) || BEARER_LIKE.test(segment)) {
      segments[i] = REDACTED;
      changed = true;
    }
  }
  let query = q < 0 ? '' : url.slice(q);
  if (query.length > 1) {
    const redactedQuery = query
      .slice(1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        let name = pair.slice(0, eq);
        try {
          name = decodeURIComponent(name);
        } catch {
          /* the name as sent */
        }
        const value = pair.slice(eq + 1);
        // By name only: query values are filters and cursors, which an operator needs to read.
        return SECRET_QUERY.test(name) && value !== '' ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
      })
      .join('&');
    if (redactedQuery !== query.slice(1)) {
      query = `?${redactedQuery}`;
      changed = true;
    }
  }
  return changed ? segments.join('/') + query : url;
}

/**
 * The request as the log's `req` serialiser sees it: the same object with its URL redacted
 * (Fastify logs `{ req }` in "incoming request"; its serialiser reads url, method, host and ip).
 */
function withRedactedUrl(args: unknown[]): unknown[] {
  const first = args[0] as { req?: { url?: unknown } } | undefined;
  const req = first?.req;
  if (!req || typeof req.url !== 'string') return args;
  const url = redactUrl(req.url);
  if (url === req.url) return args;
  return [{ ...first, req: Object.create(req, { url: { value: url } }) }, ...args.slice(1)];
}

/**
 * A request's logger (`req.log`) that becomes pino's child, with the request id bound, when it
 * first writes a line. Making a pino child serialises its bindings through the redaction rules,
 * which cost more than all the rest of a GET /ping's logging; at `LOG_LEVEL=warn` or `error` most
 * requests never write a line, so most never pay for it. A level that is off is a no-op, as in pino.
 */
class LazyRequestLogger {
  // One method per level (fatal … trace), each writing through the child.
  static {
    for (const level of LEVELS) {
      Object.defineProperty(LazyRequestLogger.prototype, level, {
        value(this: LazyRequestLogger, ...args: unknown[]) {
          this.#write(level, args);
        },
      });
    }
  }

  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Pino,
    private readonly bindings: Bindings,
    private readonly options: Options,
    eager = false,
  ) {
    if (eager) this.#child = parent.child(bindings, options);
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  /** pino's child for this request, made on first use. */
  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  #write(level: Level, args: unknown[]) {
    if (this.isLevelEnabled(level)) (this.#real()[level] as (...a: unknown[]) => void)(...withRedactedUrl(args));
  }

  silent() {}

  isLevelEnabled(level: string): boolean {
    return ((this.#child as Pino | undefined) ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: Options): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route with a log level or serialisers of its own gets pino's
 * child at once, since only pino knows what they change; its lines are redacted all the same.
 */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: Options): FastifyBaseLogger {
  const eager = options.level !== undefined || options.serializers !== undefined;
  return new LazyRequestLogger(logger as Pino, bindings, options, eager) as unknown as FastifyBaseLogger;
}
