import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../../services.ts';
import { pingDatabase } from './health.repository.ts';

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * METRICS_PORT: /metrics, /api/health and /api/ready on a port of their own, for Prometheus and the
 * orchestrator, never behind the public load balancer. A worker process (`npm run worker`), which
 * serves nothing else, listens only here. Plain node:http: three GETs need no framework.
 */
export function startOpsServer(
  services: Pick<Services, 'db' | 'databaseKind' | 'ready' | 'metrics'>,
  port: number,
  host: string,
): Promise<OpsServer> {
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return json(res, 405, {
        error: 'Method Not Allowed',
        message: `${req.method} is not served here: GET only.`,
      });
    const answer = async () => {
      if (path === '/metrics') {
        const { contentType, body } = await services.metrics();
        res.writeHead(200, { 'content-type': contentType });
        return res.end(body);
      }
      if (path === '/api/health') {
        try {
          await pingDatabase(services.db);
          return json(res, 200, { status: 'ok', database: services.databaseKind });
        } catch {
          return json(res, 503, { status: 'unavailable', database: services.databaseKind });
        }
      }
      if (path === '/api/ready') {
        const { ready, checks } = await services.ready();
        return json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
      }
      return json(res, 404, {
        error: 'Not Found',
        message: `${path} is not served here: /metrics, /api/health and /api/ready are.`,
      });
    };
    answer().catch(() => json(res, 503, { error: 'Service Unavailable', message: 'The check failed.' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
