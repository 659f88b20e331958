import type { TemporaryUploadResponse } from '@notice-desk/contract/imports';
import type { App, AppContext } from '../../app-context.ts';
import { readUploadForm } from '../../plugins/upload-form.ts';

export function uploadsRoutes(app: App, { uploads, guards }: AppContext): void {
  /** Multipart: file (an .xlsx), type, name. Answers the stored name to start an import with. */
  app.post(
    '/temporary-upload',
    { onRequest: guards.requireUser },
    async (req): Promise<TemporaryUploadResponse> => {
      const { file } = await readUploadForm(req, (incoming) => uploads.save(req.user._id, incoming));
      return { data: file.storedName };
    },
  );
}
