// The ceiling: a bare Fastify 5 server with one GET and one JSON POST route, started by the
// benchmark in its own process so it shares the machine exactly as Corridor's server does.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ ok: true }));
app.post('/', async (req) => ({ ok: true, received: Object.keys(req.body ?? {}).length }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.stdout.write('listening\n');
