import rateLimit from '@fastify/rate-limit';
import type { Container } from '../container.js';
import type { App } from '../http/types.js';
import { dashboardPages } from './pages.js';
import { dashboardRoutes } from './routes.js';

export { authenticateSession, sessionToken } from './auth.js';
export { createDashboardService, type DashboardService } from './service.js';

/** The web dashboard: its session routes under /dashboard/api and its pages under /dashboard/. */
export async function registerDashboard(app: App, container: Container) {
  // Limits only where a route asks for one (sign-in); the API has its own failure limit.
  await app.register(rateLimit, { global: false });
  dashboardRoutes(app, container);
  await dashboardPages(app);
}
