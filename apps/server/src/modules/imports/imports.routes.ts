import { z } from 'zod';
import { plainName, startImportBody } from '@notice-desk/contract/imports';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { badRequest } from '../../lib/errors.ts';
import { readUploadForm } from '../../plugins/upload-form.ts';
import { creditCardKind, noticeKind, type RecordKindInfo } from '../records/record-kinds.ts';

/** The spec's import paths, per kind. */
const importPaths = [
  {
    info: creditCardKind,
    start: '/api/credit-cards/upload-credit-card-info',
    uploadAndStart: '/api/credit-cards/upload-credit-card--import-file',
    progress: '/api/credit-cards/by-user-id/credit-cards-progress-count',
    sample: '/api/credit-cards/import-sample',
  },
  {
    info: noticeKind,
    start: '/api/notices/upload-notice-info',
    uploadAndStart: '/api/notices/upload-import-file',
    progress: '/api/notices/by-user-id/progress-count',
    sample: '/api/notices/import-sample',
  },
];

export function importsRoutes(app: App, context: AppContext): void {
  for (const paths of importPaths) kindRoutes(app, context, paths.info, paths);
  app.get(
    '/api/imports/:id/report',
    { onRequest: context.guards.requireUser, schema: { params: z.object({ id: recordId }) } },
    async (req, reply) => {
      const report = await context.imports.report(req.user._id, req.params.id);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="import-report.xlsx"')
        .send(report);
    },
  );
}

function kindRoutes(
  app: App,
  { imports, uploads, guards }: AppContext,
  info: RecordKindInfo,
  paths: (typeof importPaths)[number],
): void {
  const signedIn = { onRequest: guards.requireUser };

  app.post(paths.start, { ...signedIn, schema: { body: startImportBody } }, async (req, reply) =>
    reply.status(202).send(await imports.start(req.user._id, info.kind, req.body.file, req.body.name)),
  );

  /** Multipart: file, type, name, file_name (the campaign's name). Uploads and starts in one call. */
  app.post(paths.uploadAndStart, signedIn, async (req, reply) => {
    const { fields, file } = await readUploadForm(req, (incoming) => uploads.save(req.user._id, incoming));
    const name = plainName.optional().safeParse(fields.file_name || fields.name || undefined);
    if (!name.success) {
      const message = name.error.issues[0]!.message;
      throw badRequest(`file_name: ${message}`, { file_name: message });
    }
    return reply.status(202).send(await imports.start(req.user._id, info.kind, file.storedName, name.data));
  });

  app.get(paths.progress, signedIn, (req) => imports.progress(req.user._id, info.kind));

  app.get(paths.sample, signedIn, (_req, reply) =>
    reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${info.kind}-import-sample.xlsx"`)
      .send(imports.sample(info.kind)),
  );
}
