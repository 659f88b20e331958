import { z } from 'zod';
import { deleteAllAnswer, deletePreview } from '@notice-desk/contract/archive';
import { searchablePageQuery } from '@notice-desk/contract/paging';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { deleteRoutes } from '../archive/delete-routes.ts';
import { recordKinds, type RecordKindInfo } from './record-kinds.ts';

const idParams = z.object({ id: recordId });
const tags = ['records'];

/** The spec's record endpoints, the same for credit cards and notices. */
export function recordsRoutes(app: App, context: AppContext): void {
  guardRoutes(app, context.guards.requireUser);
  for (const info of Object.values(recordKinds)) kindRoutes(app, context, info);
}

function kindRoutes(app: App, { records }: AppContext, info: RecordKindInfo): void {
  const { base, list, deleteAll } = info.routes;
  const one = info.label.toLowerCase();
  const many = info.kind === 'notice' ? 'notices' : 'credit-card records';

  app.get(
    list,
    {
      schema: {
        tags,
        summary: `List my ${many}`,
        description: `Answers a page of the caller's ${many}, newest first, with the total, the PDF base URL (pdfUrl) and per row a signed PDF link (pdfLink). With \`search\`, only those with a word of the customer name, or an identifier (loan, mask, reference or mobile number), starting with it, ignoring case, spaces and punctuation; the total counts them.`,
        querystring: searchablePageQuery,
      },
    },
    (req) => records.list(info, req.user._id, req.query),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Get one ${one}`,
        description: `Answers one of the caller's ${many} with every field.`,
        params: idParams,
      },
    },
    (req) => records.get(info, req.user._id, req.params.id),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: `Add a ${one}`,
        description: `Adds a ${one} typed in by hand; it joins the caller's 'Manual entries' campaign of its kind. Answers 201 with the record.`,
        body: info.body,
      },
    },
    async (req, reply) =>
      reply.status(201).send(await records.create(info, req.user._id, req.body as Record<string, string>)),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Edit a ${one}`,
        description: `Saves the edited fields of one of the caller's ${many} and answers the record.`,
        params: idParams,
        body: info.body,
      },
    },
    (req) => records.update(info, req.user._id, req.params.id, req.body as Record<string, string>),
  );

  deleteRoutes(app, {
    url: `${base}/:id`,
    tags,
    remove: {
      summary: `Delete a ${one}`,
      description: `Deletes one of the caller's ${many}. One already served (a delivery attempted or under way) is archived: it leaves every list, count and search but keeps its deliveries, events, PDFs and evidence bundle. One never sent is erased. The answer says which (archived, erased).`,
      run: (ownerId, id) => records.remove(info, ownerId, id),
    },
    preview: {
      summary: `What deleting a ${one} would do`,
      description: `Whether deleting this ${one} would archive it (already served: kept as evidence) or erase it (never sent), for the confirmation to say so. Changes nothing.`,
      run: (ownerId, id) => records.previewRemove(info, ownerId, id),
    },
  });

  app.get(
    `${deleteAll}/preview`,
    {
      schema: {
        tags,
        summary: `What Delete All would do to my ${many}`,
        description: `How many of the caller's ${many} Delete All would archive (already served: kept as evidence) and how many it would erase (never sent), for the confirmation to say so. Changes nothing.`,
        response: { 200: deletePreview },
      },
    },
    (req) => records.previewRemoveAll(info, req.user._id),
  );

  app.post(
    deleteAll,
    {
      schema: {
        tags,
        summary: `Delete all my ${many}`,
        description: `Deletes every one of the caller's ${many} (Delete All): those already served are archived (kept as evidence, out of every list), the others erased. Campaigns left with archived records only are archived; empty ones are removed. The answer counts both (archived, erased; deleted is their sum).`,
        response: { 200: deleteAllAnswer },
      },
    },
    (req) => records.removeAll(info, req.user._id),
  );
}
