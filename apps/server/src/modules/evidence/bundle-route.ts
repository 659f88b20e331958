import type { Readable } from 'node:stream';
import { z } from 'zod';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App } from '../../app-context.ts';
import { sendDownload } from '../../lib/content-disposition.ts';

const params = z.object({ id: recordId });

/** Where an evidence bundle is downloaded, and the words of the API docs for it. */
type BundleRoute = { url: string; tags: string[]; summary: string; description: string };

/**
 * The download of an evidence bundle (a zip) of a record or a campaign: the caller's own, or in the
 * ADMIN's archive anyone's. `bundle` makes it for the caller and the id in the URL.
 */
export function bundleRoute(
  app: App,
  { url, tags, summary, description }: BundleRoute,
  bundle: (callerId: string, id: string) => Promise<{ name: string; stream: Readable }>,
): void {
  app.get(url, { schema: { tags, summary, description, params } }, async (req, reply) =>
    sendDownload(reply, 'application/zip', await bundle(req.user._id, req.params.id)),
  );
}
