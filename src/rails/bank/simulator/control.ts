/**
 * The simulator's control API: what a person or a test asks the bank to do that no file asks for.
 * JSON over HTTP on 127.0.0.1 only (it moves money at the simulated bank, so it is not offered to
 * the network); amounts are integers of minor units, sent and answered as strings so that no
 * JSON reader turns them into floats.
 *
 *   POST /credit     { currency, amount, reference, debtorName, debtorAccount? } → 201 { bankReference, report, balance }
 *   POST /statement  { skew?, currency? }                                         → 200 { statements: [...] }
 *   POST /process    (no body): answer the outbound files now, without waiting for the poll → 200 { processed: [...] }
 *   GET  /state      → 200 { instance, accounts: [...], processed: [...], pending: [...] }
 *
 * A request the bank refuses answers 400 with { error } naming the field; an unknown path 404, a
 * wrong method 405, a body over 64 KiB 413.
 */
import http from 'node:http';
import { SimulatorInputError, type SimulatedBank } from './bank.js';

const MAX_BODY_BYTES = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${json(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `the body is not JSON: ${(e as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length) throw new HttpError(400, `${unknown[0]}: is not a field of this request (fields: ${allowed.join(', ')})`);
}

/** Minor units as a string of digits (or a safe integer): never a float. */
function minorUnits(value: unknown, field: string, signed: boolean): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && (signed ? /^-?\d{1,30}$/ : /^\d{1,30}$/).test(value)) return BigInt(value);
  throw new HttpError(400, `${field}: must be an integer of minor units${signed ? '' : ' above zero'}, as a string such as "12345" (123.45)`);
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `${field}: must be a string`);
  return value;
}

function requiredString(value: unknown, field: string): string {
  const v = optionalString(value, field);
  if (v === undefined) throw new HttpError(400, `${field}: is required`);
  return v;
}

export function createControlServer(bank: SimulatedBank): http.Server {
  const routes: Record<string, Partial<Record<string, (req: http.IncomingMessage) => Promise<[number, unknown]>>>> = {
    '/credit': {
      POST: async (req) => {
        const body = await readBody(req);
        onlyFields(body, ['currency', 'amount', 'reference', 'debtorName', 'debtorAccount']);
        const result = await bank.credit({
          currency: requiredString(body.currency, 'currency'),
          amount: minorUnits(body.amount, 'amount', false),
          reference: requiredString(body.reference, 'reference'),
          debtorName: requiredString(body.debtorName, 'debtorName'),
          debtorAccount: optionalString(body.debtorAccount, 'debtorAccount'),
        });
        return [201, result];
      },
    },
    '/statement': {
      POST: async (req) => {
        const body = await readBody(req);
        onlyFields(body, ['skew', 'currency']);
        const statements = await bank.statement({
          ...(body.skew !== undefined ? { skew: minorUnits(body.skew, 'skew', true) } : {}),
          ...(body.currency !== undefined ? { currency: requiredString(body.currency, 'currency') } : {}),
        });
        return [200, { statements }];
      },
    },
    '/process': {
      POST: async (req) => {
        onlyFields(await readBody(req), []);
        return [200, { processed: await bank.processOutbound() }];
      },
    },
    '/state': { GET: async () => [200, bank.snapshot()] },
  };

  return http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes[pathname];
    const handler = route?.[req.method ?? ''];
    if (!route) return send(res, 404, { error: `no ${pathname} here; the control API has ${Object.keys(routes).join(', ')}` });
    if (!handler) return send(res, 405, { error: `${req.method} is not allowed on ${pathname}` }, { allow: Object.keys(route).join(', ') });
    handler(req).then(
      ([status, body]) => send(res, status, body),
      (err: unknown) => {
        if (err instanceof HttpError) send(res, err.status, { error: err.message });
        else if (err instanceof SimulatorInputError) send(res, 400, { error: err.message });
        else send(res, 500, { error: err instanceof Error ? err.message : String(err) });
      },
    );
  });
}
