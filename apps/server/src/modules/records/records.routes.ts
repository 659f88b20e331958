import { z } from 'zod';
import { pageQuery } from '@notice-desk/contract/paging';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { recordKinds, type RecordKindInfo } from './record-kinds.ts';

const idParams = z.object({ id: recordId });

/** The spec's record endpoints, the same for credit cards and notices. */
export function recordsRoutes(app: App, context: AppContext): void {
  for (const info of Object.values(recordKinds)) kindRoutes(app, context, info);
}

function kindRoutes(app: App, { records, guards }: AppContext, info: RecordKindInfo): void {
  const { base, list, deleteAll } = info.routes;
  const signedIn = { onRequest: guards.requireUser };

  app.get(list, { ...signedIn, schema: { querystring: pageQuery } }, (req) =>
    records.list(info, req.user._id, req.query),
  );

  app.get(`${base}/:id`, { ...signedIn, schema: { params: idParams } }, (req) =>
    records.get(info, req.user._id, req.params.id),
  );

  app.post(base, { ...signedIn, schema: { body: info.body } }, async (req, reply) =>
    reply.status(201).send(await records.create(info, req.user._id, req.body as Record<string, string>)),
  );

  app.put(`${base}/:id`, { ...signedIn, schema: { params: idParams, body: info.body } }, (req) =>
    records.update(info, req.user._id, req.params.id, req.body as Record<string, string>),
  );

  app.delete(`${base}/:id`, { ...signedIn, schema: { params: idParams } }, (req) =>
    records.remove(info, req.user._id, req.params.id),
  );

  app.post(deleteAll, signedIn, (req) => records.removeAll(info, req.user._id));
}
