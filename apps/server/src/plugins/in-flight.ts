import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

export interface InFlight {
  /** Requests and handlers still at work. */
  readonly count: number;
  /** Resolves once nothing is at work. */
  idle(): Promise<void>;
}

/**
 * Counts the requests the app is still working on, so closing can wait for them before it
 * destroys what they use (the database, the mailer). The HTTP server only waits for its
 * connections, and a client that hangs up mid-request closes its connection while the handler
 * goes on: without this, that handler's next query would meet a destroyed database.
 *
 * A request holds the app from onRequest until its response closes (sent, or its client gone); its
 * handler holds it too, from its start until its promise settles.
 */
export function trackInFlight(app: FastifyInstance): InFlight {
  let count = 0;
  let waiters: (() => void)[] = [];
  const hold = () => {
    count += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      count -= 1;
      if (count === 0) {
        for (const wake of waiters) wake();
        waiters = [];
      }
    };
  };

  // A callback hook and one listener: async hooks cost every request a few promises.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.once('close', hold());
    done();
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request, reply) {
      const letGo = hold();
      try {
        const result: unknown = handler.call(this, request, reply);
        if (result instanceof Promise) return result.finally(letGo);
        letGo();
        return result;
      } catch (error) {
        letGo();
        throw error;
      }
    } as RouteHandlerMethod;
  });

  return {
    get count() {
      return count;
    },
    idle: () => (count === 0 ? Promise.resolve() : new Promise<void>((wake) => waiters.push(wake))),
  };
}
