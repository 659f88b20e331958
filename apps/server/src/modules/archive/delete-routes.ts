import { z } from 'zod';
import {
  deleteAnswer,
  deletePreview,
  type DeleteAnswer,
  type DeletePreview,
} from '@notice-desk/contract/archive';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App } from '../../app-context.ts';

const params = z.object({ id: recordId });

type Words = { summary: string; description: string };

/**
 * What tells apart the delete of one record and of one campaign: the URL, the words in the API docs and
 * the service calls. Both archive what was served and erase the rest (delete-records.ts), and both say
 * first what they would do, for the confirmation.
 */
type DeleteRoutes = {
  /** DELETE {url}; what it would do: GET {url}/delete-preview. */
  url: string;
  tags: string[];
  remove: Words & { run: (ownerId: string, id: string) => Promise<DeleteAnswer> };
  preview: Words & { run: (ownerId: string, id: string) => Promise<DeletePreview> };
};

/** The delete of one of the caller's records or campaigns, and its preview. */
export function deleteRoutes(app: App, { url, tags, remove, preview }: DeleteRoutes): void {
  const routes = [
    { method: 'DELETE', url, words: remove, answer: deleteAnswer },
    { method: 'GET', url: `${url}/delete-preview`, words: preview, answer: deletePreview },
  ] as const;
  for (const route of routes)
    app.route({
      method: route.method,
      url: route.url,
      schema: {
        tags,
        summary: route.words.summary,
        description: route.words.description,
        params,
        response: { 200: route.answer },
      },
      handler: (req) => route.words.run(req.user._id, req.params.id),
    });
}
