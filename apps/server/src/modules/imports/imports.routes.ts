import { z } from 'zod';
import { importPreviewQuery, plainName, startImportBody, storedName } from '@notice-desk/contract/imports';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { attachment } from '../../lib/content-disposition.ts';
import { badRequest } from '../../lib/errors.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
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

const tags = ['imports'];

/** The form uploadAndStart reads, for the API description (the route streams it; see readUploadForm). */
const uploadAndStartForm = z.object({
  file: z.file().describe('The .xlsx workbook; its first sheet is imported.'),
  file_name: plainName.optional().describe('The campaign’s name; the uploaded file’s name when absent.'),
  name: plainName.optional().describe('Read as the campaign’s name when file_name is absent.'),
});

export function importsRoutes(app: App, context: AppContext): void {
  guardRoutes(app, context.guards.requireUser);
  for (const paths of importPaths) kindRoutes(app, context, paths.info, paths);
  app.get(
    '/api/imports/uploads/:file/preview',
    {
      schema: {
        tags,
        summary: 'Preview how an uploaded file would import',
        description:
          'Reads one of the caller’s uploads (file: the name /temporary-upload answered) as an import of kind would, writing nothing, and answers what the Review mapping step shows: the header row found (or headerRow, one of the first 20 rows with text; the rows it could be are in headerRows), every column with its header and the field it maps to (null: ignored) or could map to, the kind’s fields, the first 5 data rows exactly as they would be stored, the required fields no column fills (missing), fields more than one column fits equally well (ambiguous), and complete when nothing needs a decision. A mapping confirmed before for the same headers is pre-filled (source remembered); columns (JSON, as the start request’s mapping.columns) previews the user’s choices instead (source chosen; 400 for an unknown field, two columns for one field, a column past the header row). With scan=true (the default) the whole file is read, up to IMPORT_MAX_ROWS, to count the rows with a problem and report the rows already imported (duplicates: rows whose loan number, or mask number and AAN, the caller already has, with how many of them were served, rows repeating an earlier row of the file, and the first 100 with the campaigns they are in); scan=false answers at once with problemRows null. 400 for a file that cannot be read or a headerRow that is not one of the rows; 404 for an upload that is not the caller’s.',
        params: z.object({ file: storedName }),
        querystring: importPreviewQuery,
      },
    },
    (req) => {
      const { kind, headerRow, columns, scan } = req.query;
      return context.imports.preview(req.user._id, kind, req.params.file, {
        scan,
        ...(headerRow !== undefined && { headerRow }),
        ...(columns !== undefined && { columns }),
      });
    },
  );
  app.get(
    '/api/imports/:id/report',
    {
      schema: {
        tags,
        summary: 'Download an import’s problem report',
        description:
          'Streams an .xlsx listing the rows one of the caller’s imports skipped: row, column and problem (a missing required field, a duplicate of an earlier row, …).',
        params: z.object({ id: recordId }),
      },
    },
    async (req, reply) => {
      const report = await context.imports.report(req.user._id, req.params.id);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment('import-report.xlsx'))
        .send(report);
    },
  );
}

function kindRoutes(
  app: App,
  { imports, uploads }: AppContext,
  info: RecordKindInfo,
  paths: (typeof importPaths)[number],
): void {
  const recordsLabel = info.kind === 'notice' ? 'notices' : 'credit-card records';

  app.post(
    paths.start,
    {
      schema: {
        tags,
        summary: `Import ${recordsLabel} from an uploaded file`,
        description: `Starts importing ${recordsLabel} from an .xlsx the caller uploaded to /temporary-upload (file is the name it answered) into a new campaign, and answers 202 with the job id. The caller's imports of a kind run one after another; follow one with the progress route. mapping (optional) is the column mapping the user confirmed in Review mapping: headerRow, and columns from 0-based column index to a field key or null (ignored); columns left out map automatically. It is kept with the campaign and pre-filled for the next file with the same headers. duplicates says what to do with rows whose ${info.kind === 'notice' ? 'loan number' : 'mask number and AAN'} the caller already has (trimmed, in any case; archived and deleted records aside): 'skip' (the default: left out, each in the report as already imported in its campaign), 'new' (imported as new records) or 'update' (the existing records never served take the row's values; a row whose records were all served is left out); it is kept on the campaign. 400 for any other value. 400 when it names a field the kind does not have, maps two columns to one field, or names a column or header row the file does not have. Without a mapping, a file whose automatic mapping leaves a required field without a column, or cannot tell two columns apart, fails its import saying which.`,
        body: startImportBody,
      },
    },
    async (req, reply) => {
      const { file, name, mapping, duplicates } = req.body;
      return reply
        .status(202)
        .send(await imports.start(req.user._id, info.kind, file, name, mapping, duplicates));
    },
  );

  /** Multipart: file, type, name, file_name (the campaign's name). Uploads and starts in one call. */
  app.post(
    paths.uploadAndStart,
    {
      config: { multipartForm: uploadAndStartForm },
      schema: {
        tags,
        summary: `Upload an .xlsx and import ${recordsLabel}`,
        description: `Uploads an .xlsx (multipart/form-data) and starts importing its ${recordsLabel} into a new campaign in one call; answers 202 with the job id. A file that is not an .xlsx, or too large, is refused.`,
      },
    },
    async (req, reply) => {
      const { fields, file } = await readUploadForm(
        req,
        (incoming) => uploads.save(req.user._id, incoming),
        (stored) => uploads.discard(req.user._id, stored.storedName),
      );
      const name = plainName.optional().safeParse(fields.file_name || fields.name || undefined);
      if (!name.success) {
        const message = name.error.issues[0]!.message;
        throw badRequest(`file_name: ${message}`, { file_name: message });
      }
      return reply.status(202).send(await imports.start(req.user._id, info.kind, file.storedName, name.data));
    },
  );

  app.get(
    paths.progress,
    {
      schema: {
        tags,
        summary: `Progress of my latest ${info.kind} import`,
        description: `Answers the caller's latest import of ${recordsLabel}: percentage done (null when there has been none or it failed), status, error, rows imported and skipped, and the campaign it made.`,
      },
    },
    (req) => imports.progress(req.user._id, info.kind),
  );

  app.get(
    paths.sample,
    {
      schema: {
        tags,
        summary: `Download a sample ${info.kind} import file`,
        description: `Answers an .xlsx with every header an import of ${recordsLabel} reads and one example row.`,
      },
    },
    (_req, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(`${info.kind}-import-sample.xlsx`))
        .send(imports.sample(info.kind)),
  );
}
