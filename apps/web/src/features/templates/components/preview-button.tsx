import { useEffect, useState } from 'react';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import type { PreviewRecord } from '@notice-desk/contract/template-preview';
import { showApiProblem } from '../../../lib/api-error.ts';
import { usePreviewEmailTemplateMutation } from '../api/templates-api.ts';
import { PreviewRecordPicker } from './preview-record-picker.tsx';
import styles from './template-editor.module.css';

/** Long enough for the new tab to read the PDF; the object URL is released after that. */
const RELEASE_PREVIEW_AFTER_MS = 60_000;

type PreviewButtonProps = {
  kind: CampaignType;
  /** The language of the template being edited (a variant's code), null for a default template. */
  language: string | null;
  /** The body as it stands in the editor, saved or not. */
  html: string;
  /** A message about the body (it is empty, it names no field), to show under it. */
  onFieldError: (message: string) => void;
};

/**
 * Renders the unsaved body with the record picked (else the newest in the template's language, else
 * sample values) and opens the PDF in a new tab.
 */
export function PreviewButton({ kind, language, html, onFieldError }: PreviewButtonProps) {
  const [renderPreview, { isLoading }] = usePreviewEmailTemplateMutation();
  const [record, setRecord] = useState<PreviewRecord | null>(null);
  // Set only when the browser blocked the new tab: the PDF is then offered as a link to click.
  const [blockedPreviewUrl, setBlockedPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!blockedPreviewUrl) return;
    return () => URL.revokeObjectURL(blockedPreviewUrl);
  }, [blockedPreviewUrl]);

  const preview = async () => {
    setBlockedPreviewUrl(null);
    // Opened now, while the click still counts as the user's: a tab opened after the wait
    // for the server would be stopped by the pop-up blocker.
    const tab = window.open('', '_blank');
    if (tab) {
      tab.opener = null;
      tab.document.title = 'Preview';
      tab.document.body.textContent = 'Rendering the preview…';
    }
    try {
      const pdfUrl = await renderPreview({
        kind,
        html,
        language,
        ...(record ? { recordId: record._id } : {}),
      }).unwrap();
      if (tab && !tab.closed) {
        tab.location.href = pdfUrl;
        window.setTimeout(() => URL.revokeObjectURL(pdfUrl), RELEASE_PREVIEW_AFTER_MS);
      } else {
        setBlockedPreviewUrl(pdfUrl);
      }
    } catch (error) {
      tab?.close();
      // The record picked is gone (deleted meanwhile): the next preview prints the default one.
      if ((error as { status?: unknown }).status === 404) setRecord(null);
      showApiProblem(error, {
        fields: ['html'],
        onFieldErrors: (errors) => {
          if (errors.html) onFieldError(errors.html);
        },
        fallback: 'The preview could not be rendered.',
      });
    }
  };

  return (
    <section>
      <h2 className={styles.asideTitle}>Preview</h2>
      <p className={styles.hint}>
        Prints the body as it stands, with the record you pick, to a PDF in a new tab.
      </p>
      <PreviewRecordPicker kind={kind} language={language} value={record} onChange={setRecord} />
      <button
        type="button"
        className="button button-secondary"
        disabled={isLoading}
        onClick={() => void preview()}
      >
        {isLoading ? 'Rendering…' : 'Preview'}
      </button>
      {blockedPreviewUrl && (
        <p className={styles.hint} role="status">
          The browser blocked the new tab.{' '}
          <a href={blockedPreviewUrl} target="_blank" rel="noopener">
            Open the preview
          </a>
        </p>
      )}
    </section>
  );
}
