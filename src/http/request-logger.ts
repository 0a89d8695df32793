import type { FastifyBaseLogger } from 'fastify';
import type { ChildLoggerOptions as Options } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];
type Bindings = Record<string, unknown>;
/** The application's logger, pino: Fastify's logger type leaves out `isLevelEnabled`. */
type Pino = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

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
  ) {}

  get level(): string {
    return this.parent.level;
  }

  /** pino's child for this request, made on first use. */
  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  #write(level: Level, args: unknown[]) {
    if (this.parent.isLevelEnabled(level)) (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  silent() {}

  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: Options): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route with a log level or serialisers of its own gets pino's
 * child at once, since only pino knows what they change.
 */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: Options): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger as Pino, bindings, options) as unknown as FastifyBaseLogger;
}
