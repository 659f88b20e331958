import toast from 'react-hot-toast';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { DownloadButton } from '../../../components/ui/download-button.tsx';
import { campaignReportUrl } from '../api/campaigns-api.ts';

/** The spec's message when a notice report download fails (a credit-card one is only logged). */
export const REPORT_FAILED = 'Error downloading the report.';

type ExportReportButtonProps = { type: CampaignType; campaignId: string; campaignName: string | null };

/** 'Export Reports': the campaign's records with their delivery statuses, as .xlsx. */
export function ExportReportButton({ type, campaignId, campaignName }: ExportReportButtonProps) {
  const reportFailed = (problem: unknown) => {
    console.error('Downloading the campaign report failed.', problem);
    if (type === 'notice') toast.error(REPORT_FAILED);
  };

  return (
    <DownloadButton
      url={campaignReportUrl(type, campaignId)}
      fileName={`${campaignName ?? 'campaign'} report.xlsx`}
      label="Export Reports"
      busyLabel="Exporting…"
      onFailed={reportFailed}
    />
  );
}
