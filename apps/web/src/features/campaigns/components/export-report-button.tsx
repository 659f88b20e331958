import toast from 'react-hot-toast';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { useDownloadFileMutation } from '../../../lib/download-api.ts';
import { campaignReportUrl } from '../api/campaigns-api.ts';

/** The spec's message when a notice report download fails (a credit-card one is only logged). */
export const REPORT_FAILED = 'Error downloading the report.';

type ExportReportButtonProps = { type: CampaignType; campaignId: string; campaignName: string | null };

/** 'Export Reports': the campaign's records with their delivery statuses, as .xlsx. */
export function ExportReportButton({ type, campaignId, campaignName }: ExportReportButtonProps) {
  const [download, { isLoading: downloading }] = useDownloadFileMutation();

  const exportReport = async () => {
    try {
      await download({
        url: campaignReportUrl(type, campaignId),
        fileName: `${campaignName ?? 'campaign'} report.xlsx`,
      }).unwrap();
    } catch (problem) {
      console.error('Downloading the campaign report failed.', problem);
      if (type === 'notice') toast.error(REPORT_FAILED);
    }
  };

  return (
    <button
      type="button"
      className="button button-secondary"
      disabled={downloading}
      aria-busy={downloading}
      onClick={() => void exportReport()}
    >
      {downloading ? 'Exporting…' : 'Export Reports'}
    </button>
  );
}
