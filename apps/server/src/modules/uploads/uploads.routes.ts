import { z } from 'zod';
import type { TemporaryUploadResponse } from '@notice-desk/contract/imports';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { readUploadForm } from '../../plugins/upload-form.ts';

/** The form the route reads, for the API description (the route streams it; see readUploadForm). */
const uploadForm = z.object({ file: z.file().describe('The .xlsx workbook, or .csv/.tsv file, to import.') });

export function uploadsRoutes(app: App, { uploads, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);
  /** Multipart: file (an .xlsx, .csv or .tsv), type, name. Answers the stored name to start an import with. */
  app.post(
    '/temporary-upload',
    {
      config: { multipartForm: uploadForm },
      schema: {
        tags: ['uploads'],
        summary: 'Upload an .xlsx, .csv or .tsv to import',
        description:
          'Stores an .xlsx, .csv or .tsv file (multipart/form-data, field file) for the caller and answers its stored name in data; start the import with it. A file of another kind (.xls and .ods included: save them as .xlsx or .csv), one whose content is not what its name says, or one too large, is refused.',
      },
    },
    async (req): Promise<TemporaryUploadResponse> => {
      const { file } = await readUploadForm(
        req,
        (incoming) => uploads.save(req.user._id, incoming),
        (stored) => uploads.discard(req.user._id, stored.storedName),
      );
      return { data: file.storedName };
    },
  );
}
